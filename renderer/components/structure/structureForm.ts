import { computed, inject, nextTick, provide, reactive, ref, watch, type InjectionKey } from 'vue';
import { useI18n } from 'vue-i18n';
import type { ColorUp } from '../../../engine/plan/planner';
import type { StructureInput } from '../../../engine/plan/csv';
import {
  draftFromStructure,
  fieldTarget,
  levelAt,
  structureFromDraft,
  type FieldTarget,
  type StructureDraft,
} from '../../composables/structureDraft';
import { useConsoleStore } from '../../stores/console';

/**
 * The structure form's shared state: the draft being edited, the saved structure and the service's
 * plan it is compared with, and the refusal of the last save. StructureView creates it once and
 * provides it; its parts (chips, level table, stacks, plan, file) inject it and edit the one draft.
 */
export function createStructureForm() {
  const store = useConsoleStore();
  const { t } = useI18n();

  const saved = computed(() => store.settings?.tournament?.structure ?? null);
  const tableChips = computed(() => store.settings?.table.chipSet ?? []);
  const plan = computed(() => store.plan);

  const draft = reactive<StructureDraft>(draftFromStructure(null, []));
  const openEditors = ref<number[]>([]);
  const imported = ref<string | null>(null);
  const form = ref<HTMLFormElement | null>(null);

  const output = computed<StructureInput>(() => structureFromDraft(draft));

  function canonical(structure: StructureInput | null, chips: readonly number[]): string {
    return JSON.stringify(structureFromDraft(draftFromStructure(structure, chips)));
  }

  /** Whether the form differs from the saved structure (or, with none saved, from an empty one). */
  const dirty = computed(() => JSON.stringify(output.value) !== canonical(saved.value, tableChips.value));
  /** The service's plan belongs to what the form shows. */
  const clean = computed(() => saved.value !== null && plan.value !== null && !dirty.value);

  function load(structure: StructureInput | null, chips: readonly number[]): void {
    Object.assign(draft, draftFromStructure(structure, chips));
    openEditors.value = [];
  }

  // The saved structure fills the form, and refills it when it changes while nothing is being edited.
  watch(
    () => [saved.value, tableChips.value] as const,
    (next, previous) => {
      if (previous === undefined || JSON.stringify(output.value) === canonical(previous[0], previous[1])) load(next[0], next[1]);
    },
    { immediate: true },
  );

  // An edit makes the last refusal stale.
  watch(output, () => {
    if (store.errors.saveStructure != null) store.clearError('saveStructure');
  });

  async function focusIn(selector: string): Promise<void> {
    await nextTick();
    form.value?.querySelector<HTMLElement>(selector)?.focus();
  }

  function rowName(index: number): string {
    const row = draft.rows[index];
    const level = levelAt(draft.rows, index);
    if (row?.kind === 'level') return t('structure.rowName.level', { level });
    return level === 0 ? t('structure.rowName.firstBreak') : t('structure.rowName.break', { level });
  }

  function chipsText(chips: readonly number[]): string {
    return chips.join(', ');
  }

  function colorUpAt(afterLevel: number): ColorUp | null {
    if (!clean.value) return null;
    return plan.value?.colorUps.find((entry) => entry.afterLevel === afterLevel) ?? null;
  }

  /* ——— where the tournament is ——— */

  const savedHasBreaks = computed(() => (saved.value?.levels ?? []).some((entry) => 'break' in entry));
  const atBreakAfter = computed(() => store.settings?.tournament?.atBreakAfter ?? null);

  function momentText(afterLevel: number): string {
    const colorUp = plan.value?.colorUps.find((entry) => entry.afterLevel === afterLevel);
    const where = savedHasBreaks.value ? t('structure.now.break', { level: afterLevel }) : t('structure.now.level', { level: afterLevel });
    return colorUp === undefined ? where : t('structure.now.withColorUp', { where, chips: chipsText(colorUp.remove), next: colorUp.next });
  }

  /* ——— the last save's refusal ——— */

  const saveError = computed(() => store.errors.saveStructure ?? null);
  const target = computed<FieldTarget | null>(() => (saveError.value === null || saveError.value.key !== undefined ? null : fieldTarget(saveError.value.field)));

  return {
    saved,
    tableChips,
    plan,
    draft,
    openEditors,
    imported,
    form,
    output,
    dirty,
    clean,
    load,
    focusIn,
    rowName,
    chipsText,
    colorUpAt,
    atBreakAfter,
    momentText,
    saveError,
    target,
  };
}

export type StructureForm = ReturnType<typeof createStructureForm>;

const STRUCTURE_FORM: InjectionKey<StructureForm> = Symbol('structure form');

/** Creates the form's state and hands it to the parts below (StructureView only). */
export function provideStructureForm(): StructureForm {
  const structureForm = createStructureForm();
  provide(STRUCTURE_FORM, structureForm);
  return structureForm;
}

/** The form's state, in one of its parts. */
export function useStructureForm(): StructureForm {
  const structureForm = inject(STRUCTURE_FORM, null);
  if (structureForm === null) throw new Error('A part of the structure form is used outside StructureView.');
  return structureForm;
}
