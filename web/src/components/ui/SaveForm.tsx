import type { ReactNode } from "react";
import { Button } from "./Button";

/**
 * A settings form that saves on submit (its button or Enter), with the browser's own checks off so
 * that the server's Dutch messages are what a person reads.
 */
export function SaveForm({ onSave, children }: { onSave: () => void; children: ReactNode }) {
  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        onSave();
      }}
    >
      {children}
    </form>
  );
}

/** What EditActions needs of a settings form (the form hook's result). */
export interface EditableForm {
  editing: boolean;
  pending: boolean;
  edit: () => void;
  submit: () => unknown;
  cancel: () => void;
}

/**
 * A settings panel's buttons: "Bewerken", or while editing "Opslaan" and "Annuleren" (with the
 * tab's own buttons `between` and `after` them), all held while a save is under way. `onCancel`
 * replaces the form's own cancel.
 */
export function EditActions({
  form,
  onCancel = form.cancel,
  between,
  after,
}: {
  form: EditableForm;
  onCancel?: () => void;
  between?: ReactNode;
  after?: ReactNode;
}) {
  if (!form.editing) return <Button onClick={form.edit}>Bewerken</Button>;
  return (
    <>
      <Button onClick={() => void form.submit()} disabled={form.pending}>
        {form.pending ? "Opslaan..." : "Opslaan"}
      </Button>
      {between}
      <Button variant="secondary" disabled={form.pending} onClick={onCancel}>
        Annuleren
      </Button>
      {after}
    </>
  );
}
