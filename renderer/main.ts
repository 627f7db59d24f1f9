import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import { getConsoleApi } from './api';
import { isDisplayMode } from './displayMode';
import { createConsoleI18n, pickLocale } from './i18n';
import { connectStores } from './stores/connect';
import './style.css';
import './points.css';
import './structure.css';
import './record.css';

const pinia = createPinia();
const app = createApp(App, { mode: isDisplayMode(window.location) ? 'display' : 'console' })
  .use(pinia)
  .use(createConsoleI18n(pickLocale(navigator.languages)));

connectStores(getConsoleApi(), pinia);
app.mount('#app');
