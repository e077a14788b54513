import { describe, expect, it } from "vitest";
import { settingsFormReducer, type SettingsFormAction, type SettingsFormState } from "./use-settings-form";

type Values = { name: string; city: string };
const STORED: Values = { name: "Lease BV", city: "Utrecht" };
const IDLE: SettingsFormState<Values> = { draft: null, errors: {} };

const run = (...actions: SettingsFormAction<Values>[]) => actions.reduce(settingsFormReducer<Values>, IDLE);

describe("settingsFormReducer", () => {
  it("shows the stored values until editing starts from them", () => {
    expect(IDLE.draft).toBeNull();
    expect(run({ type: "edit", stored: STORED })).toEqual({ draft: STORED, errors: {} });
  });

  it("a change edits the draft, starting from the stored values when there is none yet", () => {
    const typed = run({ type: "change", stored: STORED, patch: { city: "Amsterdam" } });
    expect(typed.draft).toEqual({ name: "Lease BV", city: "Amsterdam" });
    const again = settingsFormReducer(typed, {
      type: "change",
      stored: { name: "Other", city: "Other" },
      patch: { name: "Nieuw" },
    });
    expect(again.draft).toEqual({ name: "Nieuw", city: "Amsterdam" });
  });

  it("a failed check or save keeps the draft with the fields' messages", () => {
    const failed = run(
      { type: "edit", stored: STORED },
      { type: "change", stored: STORED, patch: { name: "" } },
      { type: "errors", errors: { name: "Bedrijfsnaam is verplicht" } },
    );
    expect(failed).toEqual({
      draft: { name: "", city: "Utrecht" },
      errors: { name: "Bedrijfsnaam is verplicht" },
    });
    // The next check replaces the messages (a passing one clears them).
    expect(settingsFormReducer(failed, { type: "errors", errors: {} }).errors).toEqual({});
  });

  it("editing anew drops old messages; cancel and saved end the draft and its messages", () => {
    const failed = run({ type: "edit", stored: STORED }, { type: "errors", errors: { city: "Te lang" } });
    expect(settingsFormReducer(failed, { type: "edit", stored: STORED }).errors).toEqual({});
    expect(settingsFormReducer(failed, { type: "cancel" })).toEqual(IDLE);
    expect(settingsFormReducer(failed, { type: "saved" })).toEqual(IDLE);
  });
});

describe("a field's message as it is edited", () => {
  const check = (values: Values) => (values.name.trim() ? {} : { name: "Bedrijfsnaam is verplicht" });
  const failed = run(
    { type: "change", stored: STORED, patch: { name: "" } },
    { type: "errors", errors: { name: "Bedrijfsnaam is verplicht", city: "Onbekende plaats" } },
  );

  it("goes as soon as the value is corrected, and stays while it is still wrong", () => {
    const still = settingsFormReducer(failed, {
      type: "change",
      stored: STORED,
      patch: { name: " " },
      check,
    });
    expect(still.errors.name).toBe("Bedrijfsnaam is verplicht");
    const fixed = settingsFormReducer(still, { type: "change", stored: STORED, patch: { name: "B" }, check });
    expect(fixed.errors).toEqual({ city: "Onbekende plaats" });
  });

  it("a field without a check loses its message when changed; others keep theirs", () => {
    const changed = settingsFormReducer(failed, { type: "change", stored: STORED, patch: { city: "Ede" } });
    expect(changed.errors).toEqual({ name: "Bedrijfsnaam is verplicht" });
  });
});
