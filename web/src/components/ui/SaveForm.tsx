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

/**
 * A settings panel's buttons: "Bewerken", or while editing "Opslaan" and "Annuleren" (with the
 * tab's own buttons `between` and `after` them), all held while a save is under way.
 */
export function EditActions({
  editing,
  saving,
  onEdit,
  onSave,
  onCancel,
  between,
  after,
}: {
  editing: boolean;
  saving: boolean;
  onEdit: () => void;
  onSave: () => void;
  onCancel: () => void;
  between?: ReactNode;
  after?: ReactNode;
}) {
  if (!editing) return <Button onClick={onEdit}>Bewerken</Button>;
  return (
    <>
      <Button onClick={onSave} disabled={saving}>
        {saving ? "Opslaan..." : "Opslaan"}
      </Button>
      {between}
      <Button variant="secondary" disabled={saving} onClick={onCancel}>
        Annuleren
      </Button>
      {after}
    </>
  );
}
