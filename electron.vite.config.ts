import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'electron-vite';
import { fileURLToPath } from 'node:url';

const fromRoot = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/** Compile-time flags of the vue-i18n ESM bundler build (Composition API only, no devtools). */
const vueI18nFlags = {
  // No screen uses vue-i18n's components (<i18n-t>, v-t) nor Vue's Options API (every component
  // is <script setup>): both left out of the bundle, whose 200 KB the page's JavaScript must fit.
  __VUE_OPTIONS_API__: 'false',
  __VUE_I18N_FULL_INSTALL__: 'false',
  __VUE_I18N_LEGACY_API__: 'false',
  __INTLIFY_PROD_DEVTOOLS__: 'false',
  __INTLIFY_DROP_MESSAGE_COMPILER__: 'false',
};

// `electron-vite build` writes out/main/index.js (ESM), out/preload/index.cjs and
// out/preload/display.cjs (CommonJS: a sandboxed preload cannot be an ES module; the player
// display has its own, without commands) and out/renderer/index.html.
// `electron-vite build --outDir DIR` writes the same under DIR/ (scripts/build.test.ts).
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rolldownOptions: {
        input: { index: fromRoot('station/electron/index.ts') },
        // serialport loads a native addon (N-API prebuilds inside @serialport/bindings-cpp):
        // it must stay a runtime require, never bundled.
        external: ['serialport', /^@serialport\//],
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // Sandboxed preloads can require only 'electron': bundle everything else, and each preload
      // whole into its own file (the two share code, which would otherwise go to a chunk file a
      // sandboxed preload cannot require).
      externalizeDeps: false,
      isolatedEntries: true,
      rolldownOptions: {
        input: { index: fromRoot('station/electron/preload.ts'), display: fromRoot('station/electron/displayPreload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: fromRoot('renderer'),
    plugins: [vue()],
    define: vueI18nFlags,
    build: {
      outDir: 'out/renderer',
      // The console ships to table PCs: minified, the page loads faster and weighs a third less.
      minify: true,
      rolldownOptions: {
        input: { index: fromRoot('renderer/index.html') },
        // The libraries (Vue, Pinia, vue-i18n), the words in three languages (the screens' locales
        // and the engine's catalogs) and the console's code each in a chunk of its own: none past
        // the 500 kB the build warns of (one chunk was 631 kB, and a first `npm start` printed the
        // warning: issue 24), all loaded by the page at once as before.
        output: { codeSplitting: { groups: [{ name: 'libraries', test: /node_modules/ }, { name: 'words', test: /renderer[\\/]locales[\\/]|engine[\\/]messages[\\/](en|fi|ru)[\\/.]/ }] } },
      },
    },
  },
});
