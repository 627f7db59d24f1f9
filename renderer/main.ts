import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import { createConsoleI18n, pickLocale } from './i18n';
import './style.css';

createApp(App)
  .use(createPinia())
  .use(createConsoleI18n(pickLocale(navigator.languages)))
  .mount('#app');
