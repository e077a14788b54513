// The one form hook of the web app, for every form that submits values and can be refused: the
// public forms (lease request, contact), the sign-in, the e-mail composer and every panel form
// (settings tabs, account, team, lead stage and routing, templates, webhooks, privacy, ad spend…).
//
// It holds the values (the initial or stored ones until the person edits, then a draft), the
// fields' messages (the form's own checks before sending and the server's validation_failed fields
// after, each checked again as it is corrected), one submit with its pending state, the notice of
// a failed submit (overridable) and the return to the initial values after success (or not).
//
// Left on their own state, as they have no submit-with-errors cycle (nothing is sent whose refusal
// comes back to a field): the period pickers, which only set what the page shows (AnalyticsPeriod's
// own period with its range message, the period of ResponseReportTab and CampaignReportSection),
// the lease requests' search and filters (LeaseRequestsTab), the quote calculator
// (CalculatorSection: its inputs compute a figure on the page, nothing is sent), switches and
// one-click actions that send at once (a lead's owner, status buttons, delete, retry, the
// take-new-leads switch, privacy export and erasure).
import { useReducer, useRef, useState, type FormEvent } from "react";
import { fieldErrors } from "../api/client";
import { useNotice } from "../components/notice";

/** Messages by field key (the server's field path); a key without a message has none. */
export type FormErrors = Partial<Record<string, string>>;

export interface FormState<T> {
  /** The values being edited; null while the initial (stored) values are shown. */
  draft: T | null;
  errors: FormErrors;
}

export type FormAction<T> =
  /** Start editing from the initial values; old messages go. */
  | { type: "edit"; initial: T }
  /**
   * Change some fields (editing starts from the initial values when it had not yet). A changed
   * field that shows a message is checked again with `check` (the messages of all fields for the
   * new values): corrected, its message goes at once; without `check` it goes with the change.
   */
  | { type: "change"; initial: T; patch: Partial<T>; check?: (values: T) => FormErrors }
  /** The messages of a check (the form's own before sending, or the server's after): the draft stays. */
  | { type: "errors"; errors: FormErrors }
  /** Back to the initial values, without messages (cancel, or after a successful submit). */
  | { type: "reset" }
  /** Sent, and the values stay as they are: only the messages go. */
  | { type: "sent" };

export function formReducer<T>(state: FormState<T>, action: FormAction<T>): FormState<T> {
  switch (action.type) {
    case "edit":
      return { draft: action.initial, errors: {} };
    case "change": {
      const draft = { ...(state.draft ?? action.initial), ...action.patch };
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
    case "sent":
      return { ...state, errors: {} };
    case "reset":
      return { draft: null, errors: {} };
  }
}

/** Whether a check found anything. */
export function hasErrors(errors: FormErrors): boolean {
  return Object.values(errors).some(Boolean);
}

export const SAVE_FAILED_TITLE = "Fout bij Opslaan";
export const SAVE_FAILED_FALLBACK = "Er is een fout opgetreden bij het opslaan";

export interface FormOptions<T, R> {
  /** The values the form starts from (a panel's stored values: defaults while they load). */
  initial: T;
  /** Sends the values; its answer goes to onSuccess. */
  submit: (values: T) => Promise<R>;
  onSuccess?: (answer: R, values: T) => void;
  /** After success the values stay (default: back to `initial`, which ends a panel's draft). */
  keepValues?: boolean;
  /** The form's own checks before sending: messages by field, empty when the values may be sent. */
  validate?: (values: T) => FormErrors;
  /**
   * The checks a field showing a message is put through again as it is edited (default: validate):
   * may include the server's rules, so its message also goes once the value is corrected.
   */
  recheck?: (values: T) => FormErrors;
  /** Which of a refused submit's server messages show at fields (default: all of them). */
  serverErrors?: (error: unknown) => FormErrors;
  /** Asked once the values pass the checks, before sending (a window.confirm): false sends nothing. */
  confirm?: (values: T) => boolean;
  /** Called with the messages whenever a submit is refused at fields (own checks or server's), e.g. to focus the first. */
  onInvalid?: (errors: FormErrors) => void;
  /** The notice of a failed submit (default "Fout bij Opslaan" with the server's message). */
  failure?: { title: string; fallback: string };
  /** Instead of the notice: what a failed submit does (the fields' messages are shown either way). */
  onFailed?: (error: unknown, errors: FormErrors) => void;
}

/** What the submit of a form works with: the hook's state, or a test's stand-ins. */
export interface FormRuntime<T> {
  values: T;
  dispatch: (action: FormAction<T>) => void;
  notifyError: (title: string, error: unknown, fallback: string) => void;
  setPending: (pending: boolean) => void;
  /** Whether a submit is under way (a second one while it is, Enter pressed twice, is ignored). */
  sending: { current: boolean };
}

/** A form's submit (its own checks, then send) and send (without them); each is true once accepted. */
export function formSubmit<T, R>(options: FormOptions<T, R>, runtime: FormRuntime<T>) {
  const { dispatch } = runtime;
  const refuse = (errors: FormErrors) => {
    if (hasErrors(errors)) options.onInvalid?.(errors);
  };
  const send = async (sent: T): Promise<boolean> => {
    if (runtime.sending.current) return false;
    runtime.sending.current = true;
    runtime.setPending(true);
    try {
      const answer = await options.submit(sent);
      dispatch({ type: options.keepValues ? "sent" : "reset" });
      options.onSuccess?.(answer, sent);
      return true;
    } catch (error) {
      // The server's field messages show at their fields, the notice says what failed.
      const errors = (options.serverErrors ?? fieldErrors)(error);
      if (hasErrors(errors)) dispatch({ type: "errors", errors });
      refuse(errors);
      if (options.onFailed) options.onFailed(error, errors);
      else {
        const notice = options.failure ?? { title: SAVE_FAILED_TITLE, fallback: SAVE_FAILED_FALLBACK };
        runtime.notifyError(notice.title, error, notice.fallback);
      }
      return false;
    } finally {
      runtime.sending.current = false;
      runtime.setPending(false);
    }
  };
  const submit = async (): Promise<boolean> => {
    if (runtime.sending.current) return false;
    const errors = options.validate?.(runtime.values) ?? {};
    dispatch({ type: "errors", errors });
    if (hasErrors(errors)) {
      refuse(errors);
      return false;
    }
    if (options.confirm && !options.confirm(runtime.values)) return false;
    return send(runtime.values);
  };
  return { submit, send };
}

export function useForm<T extends object, R = unknown>(options: FormOptions<T, R>) {
  const { notifyError } = useNotice();
  const [state, dispatch] = useReducer(formReducer<T>, { draft: null, errors: {} });
  const [pending, setPending] = useState(false);
  const sending = useRef(false);
  const values = state.draft ?? options.initial;
  const check = options.recheck ?? options.validate;
  const { submit, send } = formSubmit(options, { values, dispatch, notifyError, setPending, sending });

  const change = (patch: Partial<T>) => dispatch({ type: "change", initial: options.initial, patch, check });
  const set = <K extends keyof T>(key: K, value: T[K]) => change({ [key]: value } as unknown as Partial<T>);

  return {
    /** What the fields show: the draft while editing, else the initial values. */
    values,
    editing: state.draft !== null,
    errors: state.errors,
    pending,
    edit: () => dispatch({ type: "edit", initial: options.initial }),
    set,
    change,
    /** Shows messages of the form's own making (e.g. a check only the submit button makes). */
    setErrors: (errors: FormErrors) => dispatch({ type: "errors", errors }),
    /** Back to the initial values, without messages. */
    cancel: () => dispatch({ type: "reset" }),
    submit,
    send,
    /** A form element's onSubmit: the browser's own submit is kept off. */
    onSubmit: (event: FormEvent) => {
      event.preventDefault();
      void submit();
    },
    /** A text field's value, message and change handler (TextField's props). */
    text: <K extends keyof T>(key: K) => ({
      value: values[key] as string,
      error: state.errors[key as string],
      onChange: (value: string) => set(key, value as T[K]),
    }),
  };
}

export type Form<T extends object> = ReturnType<typeof useForm<T>>;
