import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import { getConsoleApi } from './api';
import { isDisplayMode } from './displayMode';
import { createConsoleI18n, pickLocale } from './i18n';
import { connectStores } from './stores/connect';
// The stylesheets in cascade order: the shared tokens and base, the shell and common pieces, then
// one file per screen or component (a later file's rule wins a tie with an earlier one's).
import './styles/base.css';
import './styles/shell.css';
import './styles/common.css';
import './styles/setup.css';
import './styles/counts.css';
import './styles/dealing.css';
import './styles/cards.css';
import './styles/result.css';
import './styles/history.css';
import './styles/display.css';
import './styles/source.css';
import './styles/clock.css';
import './styles/points.css';
import './styles/structure.css';
import './styles/record.css';

const pinia = createPinia();
const app = createApp(App, { mode: isDisplayMode(window.location) ? 'display' : 'console' })
  .use(pinia)
  .use(createConsoleI18n(pickLocale(navigator.languages)));

connectStores(getConsoleApi(), pinia);
app.mount('#app');
