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
