import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import { getConsoleApi } from './api';
import { isDisplayMode } from './displayMode';
import { createConsoleI18n, pickLocale } from './i18n';
import { useConsoleStore } from './stores/console';
import './style.css';
import './points.css';
import './structure.css';
import './record.css';

const pinia = createPinia();
const app = createApp(App, { mode: isDisplayMode(window.location) ? 'display' : 'console' })
  .use(pinia)
  .use(createConsoleI18n(pickLocale(navigator.languages)));

useConsoleStore(pinia).connect(getConsoleApi());
app.mount('#app');
