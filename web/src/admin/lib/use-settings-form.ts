// The form state of the settings tabs (Bedrijfsgegevens, Theme, E-mail, Pixels): the stored values
// until the admin edits, a draft while editing, the fields' messages (the tab's own checks and the
// server's validation_failed fields), and one save that ends the draft or keeps it with the errors.
import { useMutation } from "@tanstack/react-query";
import { useReducer } from "react";
import { fieldErrors } from "../../api/client";
import { useNotice } from "../../components/notice";

/** Messages by field key (the server's field path); a key without a message has none. */
export type SettingsFieldErrors = Partial<Record<string, string>>;

export interface SettingsFormState<T> {
  /** The values being edited; null while the stored values are shown. */
  draft: T | null;
  errors: SettingsFieldErrors;
}

export type SettingsFormAction<T> =
  /** Start editing from the stored values; old messages go. */
  | { type: "edit"; stored: T }
  /**
   * Change some fields (editing starts from the stored values when it had not yet). A changed field
   * that shows a message is checked again with `check` (the messages of all fields for the new
   * values): corrected, its message goes at once; without `check` it goes with the change.
   */
  | { type: "change"; stored: T; patch: Partial<T>; check?: (values: T) => SettingsFieldErrors }
  /** Back to the stored values, without messages. */
  | { type: "cancel" }
  /** The messages of a check (the tab's own before saving, or the server's after): the draft stays. */
  | { type: "errors"; errors: SettingsFieldErrors }
  /** Stored: the draft and its messages are done. */
  | { type: "saved" };

export function settingsFormReducer<T>(
  state: SettingsFormState<T>,
  action: SettingsFormAction<T>,
): SettingsFormState<T> {
  switch (action.type) {
    case "edit":
      return { draft: action.stored, errors: {} };
    case "change": {
      const draft = { ...(state.draft ?? action.stored), ...action.patch };
      const shown = Object.keys(action.patch).filter((key) => state.errors[key]);
      if (shown.length === 0) return { ...state, draft };
      const now = action.check?.(draft) ?? {};
      const errors = { ...state.errors };
      for (const key of shown) {
        if (now[key]) errors[key] = now[key];
        else delete errors[key];
      }
      return { draft, errors };
    }
    case "errors":
      return { ...state, errors: action.errors };
    case "cancel":
    case "saved":
      return { draft: null, errors: {} };
  }
}

export const SAVE_FAILED_TITLE = "Fout bij Opslaan";
export const SAVE_FAILED_FALLBACK = "Er is een fout opgetreden bij het opslaan";

export interface SettingsFormOptions<T, R> {
  /** The stored values (from the tab's query; defaults while it loads). */
  stored: T;
  /** Stores the values; its answer goes to onSaved. */
  save: (values: T) => Promise<R>;
  onSaved: (answer: R) => void;
  /** The tab's own checks before saving: messages by field, empty when the values may be sent. */
  validate?: (values: T) => SettingsFieldErrors;
  /**
   * The checks a field showing a message is put through again as it is edited (default: validate):
   * may include the server's rules, so its message also goes once the value is corrected.
   */
  recheck?: (values: T) => SettingsFieldErrors;
  /** The notice of a failed save; "Fout bij Opslaan" with the server's message by default. */
  onFailed?: (error: unknown) => void;
}

export function useSettingsForm<T extends object, R>(options: SettingsFormOptions<T, R>) {
  const { notifyError } = useNotice();
  const [state, dispatch] = useReducer(settingsFormReducer<T>, { draft: null, errors: {} });
  const mutation = useMutation({
    mutationFn: options.save,
    onSuccess: (answer) => {
      dispatch({ type: "saved" });
      options.onSaved(answer);
    },
    onError: (error) => {
      // The server's field messages show at their fields, the notice says what failed.
      dispatch({ type: "errors", errors: fieldErrors(error) });
      if (options.onFailed) options.onFailed(error);
      else notifyError(SAVE_FAILED_TITLE, error, SAVE_FAILED_FALLBACK);
    },
  });
  const values = state.draft ?? options.stored;
  const check = options.recheck ?? options.validate;

  return {
    /** What the fields show: the draft while editing, else the stored values. */
    values,
    editing: state.draft !== null,
    errors: state.errors,
    saving: mutation.isPending,
    edit: () => dispatch({ type: "edit", stored: options.stored }),
    set: <K extends keyof T>(key: K, value: T[K]) =>
      dispatch({
        type: "change",
        stored: options.stored,
        patch: { [key]: value } as unknown as Partial<T>,
        check,
      }),
    change: (patch: Partial<T>) => dispatch({ type: "change", stored: options.stored, patch, check }),
    cancel: () => dispatch({ type: "cancel" }),
    /** Checks and stores the values shown; true once stored. */
    submit: async (): Promise<boolean> => {
      const errors = options.validate?.(values) ?? {};
      dispatch({ type: "errors", errors });
      if (Object.values(errors).some(Boolean)) return false;
      try {
        await mutation.mutateAsync(values);
        return true;
      } catch {
        return false;
      }
    },
  };
}
