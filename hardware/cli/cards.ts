import { runCommand } from './args';
import { cardsMain } from './cardsMain';

/** `npm run --silent cards -- …`: the field diagnostics command (see cardsMain for its options and exit codes). */
runCommand('cards', (args) => cardsMain(args));
