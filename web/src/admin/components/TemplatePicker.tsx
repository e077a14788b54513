import { useQuery } from "@tanstack/react-query";
import type { EmailTemplate } from "@lease/contracts";
import { useId } from "react";
import { fetchEmailTemplates } from "../api";
import { inputClass } from "../../components/ui";

/** The compose window's "Sjabloon": staff's templates (E-mail Instellingen), chosen to fill the e-mail. */
export function TemplatePicker({
  disabled,
  onPick,
}: {
  disabled?: boolean;
  onPick: (template: EmailTemplate) => void;
}) {
  const id = useId();
  const templates = useQuery({ queryKey: ["/api/admin/email-templates"], queryFn: fetchEmailTemplates });
  if (!templates.data || templates.data.length === 0) return null;
  return (
    <div>
      <label htmlFor={id} className="text-sm font-semibold text-gray-800">
        Sjabloon
      </label>
      <select
        id={id}
        className={inputClass("admin")}
        value=""
        disabled={disabled}
        onChange={(event) => {
          const chosen = templates.data.find((t) => t.id === event.target.value);
          if (chosen) onPick(chosen);
        }}
      >
        <option value="">Kies een sjabloon…</option>
        {templates.data.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </select>
    </div>
  );
}
