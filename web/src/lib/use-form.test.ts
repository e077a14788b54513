import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import {
  formReducer,
  formSubmit,
  SAVE_FAILED_FALLBACK,
  SAVE_FAILED_TITLE,
  type FormAction,
  type FormErrors,
  type FormOptions,
  type FormState,
} from "./use-form";

type Values = { name: string; city: string };
const STORED: Values = { name: "Lease BV", city: "Utrecht" };
const IDLE: FormState<Values> = { draft: null, errors: {} };

const run = (...actions: FormAction<Values>[]) => actions.reduce(formReducer<Values>, IDLE);

describe("formReducer", () => {
  it("shows the stored values until editing starts from them", () => {
    expect(IDLE.draft).toBeNull();
    expect(run({ type: "edit", initial: STORED })).toEqual({ draft: STORED, errors: {} });
  });

  it("a change edits the draft, starting from the stored values when there is none yet", () => {
    const typed = run({ type: "change", initial: STORED, patch: { city: "Amsterdam" } });
    expect(typed.draft).toEqual({ name: "Lease BV", city: "Amsterdam" });
    const again = formReducer(typed, {
      type: "change",
      initial: { name: "Other", city: "Other" },
      patch: { name: "Nieuw" },
    });
    expect(again.draft).toEqual({ name: "Nieuw", city: "Amsterdam" });
  });

  it("a failed check or save keeps the draft with the fields' messages", () => {
    const failed = run(
      { type: "edit", initial: STORED },
      { type: "change", initial: STORED, patch: { name: "" } },
      { type: "errors", errors: { name: "Bedrijfsnaam is verplicht" } },
    );
    expect(failed).toEqual({
      draft: { name: "", city: "Utrecht" },
      errors: { name: "Bedrijfsnaam is verplicht" },
    });
    // The next check replaces the messages (a passing one clears them).
    expect(formReducer(failed, { type: "errors", errors: {} }).errors).toEqual({});
  });

  it("editing anew drops old messages; reset (cancel, or a submit that succeeded) ends the draft and its messages", () => {
    const failed = run({ type: "edit", initial: STORED }, { type: "errors", errors: { city: "Te lang" } });
    expect(formReducer(failed, { type: "edit", initial: STORED }).errors).toEqual({});
    expect(formReducer(failed, { type: "reset" })).toEqual(IDLE);
    expect(formReducer(failed, { type: "reset" })).toEqual(IDLE);
  });
});

describe("a field's message as it is edited", () => {
  const check = (values: Values) => (values.name.trim() ? {} : { name: "Bedrijfsnaam is verplicht" });
  const failed = run(
    { type: "change", initial: STORED, patch: { name: "" } },
    { type: "errors", errors: { name: "Bedrijfsnaam is verplicht", city: "Onbekende plaats" } },
  );

  it("goes as soon as the value is corrected, and stays while it is still wrong", () => {
    const still = formReducer(failed, {
      type: "change",
      initial: STORED,
      patch: { name: " " },
      check,
    });
    expect(still.errors.name).toBe("Bedrijfsnaam is verplicht");
    const fixed = formReducer(still, { type: "change", initial: STORED, patch: { name: "B" }, check });
    expect(fixed.errors).toEqual({ city: "Onbekende plaats" });
  });

  it("a field without a check loses its message when changed; others keep theirs", () => {
    const changed = formReducer(failed, { type: "change", initial: STORED, patch: { city: "Ede" } });
    expect(changed.errors).toEqual({ name: "Bedrijfsnaam is verplicht" });
  });
});

describe("a form's submit", () => {
  const refused = new ApiError(
    400,
    {
      code: "validation_failed",
      message: "Ongeldige invoer",
      fields: [
        { path: "name", message: "Bedrijfsnaam is te lang" },
        { path: "hidden", message: "Niet in dit formulier" },
      ],
    },
    "Ongeldige invoer",
  );

  /** A form over `values` whose submit answers `answer` (or throws it when it is an Error). */
  function harness(values: Values, options: Partial<FormOptions<Values, string>>, answer: unknown = "ok") {
    const actions: FormAction<Values>[] = [];
    const notices: string[] = [];
    const sent: Values[] = [];
    const pending: boolean[] = [];
    const runtime = {
      values,
      dispatch: (action: FormAction<Values>) => actions.push(action),
      notifyError: (title: string, _error: unknown, fallback: string) =>
        notices.push(`${title}: ${fallback}`),
      setPending: (now: boolean) => pending.push(now),
      sending: { current: false },
    };
    const form = formSubmit<Values, string>(
      {
        initial: STORED,
        submit: async (next) => {
          sent.push(next);
          if (answer instanceof Error) throw answer;
          return answer as string;
        },
        ...options,
      },
      runtime,
    );
    return { form, actions, notices, sent, pending, runtime };
  }
  const required = (values: Values): FormErrors => (values.name ? {} : { name: "Bedrijfsnaam is verplicht" });

  it("sends nothing while the form's own checks find a message, and shows it", async () => {
    const invalid: FormErrors[] = [];
    const run = harness({ name: "", city: "Ede" }, { validate: required, onInvalid: (e) => invalid.push(e) });
    expect(await run.form.submit()).toBe(false);
    expect(run.sent).toEqual([]);
    expect(run.actions).toEqual([{ type: "errors", errors: { name: "Bedrijfsnaam is verplicht" } }]);
    expect(invalid).toEqual([{ name: "Bedrijfsnaam is verplicht" }]);
    expect(run.pending).toEqual([]);
  });

  it("sends checked values with a pending state, then goes back to the initial values", async () => {
    const answers: string[] = [];
    const run = harness(STORED, { validate: required, onSuccess: (answer) => answers.push(answer) });
    expect(await run.form.submit()).toBe(true);
    expect(run.sent).toEqual([STORED]);
    expect(run.pending).toEqual([true, false]);
    expect(run.actions).toEqual([{ type: "errors", errors: {} }, { type: "reset" }]);
    expect(answers).toEqual(["ok"]);
    expect(run.notices).toEqual([]);
  });

  it("sends checked values only once the person confirms", async () => {
    const asked: Values[] = [];
    const no = harness(STORED, { confirm: (values) => (asked.push(values), false) });
    expect(await no.form.submit()).toBe(false);
    expect(no.sent).toEqual([]);
    expect(asked).toEqual([STORED]);
    const yes = harness(STORED, { confirm: () => true });
    expect(await yes.form.submit()).toBe(true);
    expect(yes.sent).toEqual([STORED]);
  });

  it("keeps the values after success when the form asks (only the messages go)", async () => {
    const run = harness(STORED, { keepValues: true });
    expect(await run.form.send({ name: "Nieuw", city: "Ede" })).toBe(true);
    expect(run.sent).toEqual([{ name: "Nieuw", city: "Ede" }]);
    expect(run.actions).toEqual([{ type: "sent" }]);
  });

  it("a refused submit shows the server's field messages and the default notice", async () => {
    const run = harness(STORED, {}, refused);
    expect(await run.form.submit()).toBe(false);
    expect(run.actions.at(-1)).toEqual({
      type: "errors",
      errors: { name: "Bedrijfsnaam is te lang", hidden: "Niet in dit formulier" },
    });
    expect(run.notices).toEqual([`${SAVE_FAILED_TITLE}: ${SAVE_FAILED_FALLBACK}`]);
    expect(run.pending).toEqual([true, false]);
  });

  it("the form chooses which server messages show, and its own notice or failure handling", async () => {
    const failed: FormErrors[] = [];
    const run = harness(
      STORED,
      {
        serverErrors: () => ({ name: "Bedrijfsnaam is te lang" }),
        failure: { title: "Fout bij Versturen", fallback: "Probeer het opnieuw" },
      },
      refused,
    );
    await run.form.submit();
    expect(run.actions.at(-1)).toEqual({ type: "errors", errors: { name: "Bedrijfsnaam is te lang" } });
    expect(run.notices).toEqual(["Fout bij Versturen: Probeer het opnieuw"]);

    const own = harness(STORED, { onFailed: (_error, errors) => failed.push(errors) }, new Error("netwerk"));
    await own.form.submit();
    expect(own.notices).toEqual([]);
    // No field messages: the messages shown stay as the check left them.
    expect(own.actions).toEqual([{ type: "errors", errors: {} }]);
    expect(failed).toEqual([{}]);
  });

  it("ignores a second submit while one is under way", async () => {
    let answer: (value: string) => void = () => {};
    const gate = new Promise<string>((resolve) => (answer = resolve));
    const run = harness(STORED, { submit: () => gate });
    const first = run.form.submit();
    expect(await run.form.submit()).toBe(false);
    expect(await run.form.send(STORED)).toBe(false);
    answer("ok");
    expect(await first).toBe(true);
    expect(run.pending).toEqual([true, false]);
  });
});
