/** A button of a form's action row: what it says, its test id, what it does; `look` adds `button--<look>`. */
export interface ButtonAction {
  testid: string;
  text: string;
  run: () => void;
  disabled?: boolean;
  look?: 'quiet';
}
