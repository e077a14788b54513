import { inputClass } from "../../components/ui";

export interface DayRange {
  from: string;
  to: string;
}

/** `report`: the reports' fields in the panel's input look; `compact`: small, beside preset buttons. */
type DateRangeLook = "report" | "compact";

const LOOKS: Record<DateRangeLook, { label: string; input: string }> = {
  report: { label: "text-sm font-medium text-gray-700", input: inputClass("admin") },
  compact: { label: "text-sm text-gray-700", input: "ml-1 rounded border border-gray-300 px-2 py-1" },
};

/**
 * A period's first and last day ("Van", "Tot en met"), each label around its day field, none after
 * `max`. With `id` the fields get ids of their own (`${id}-from`, `${id}-to`).
 */
export function DateRange({
  value,
  onChange,
  max,
  id,
  look = "report",
}: {
  value: DayRange;
  onChange: (range: DayRange) => void;
  max: string;
  id?: string;
  look?: DateRangeLook;
}) {
  const classes = LOOKS[look];
  const day = (end: keyof DayRange, label: string) => (
    <label className={classes.label} htmlFor={id && `${id}-${end}`}>
      {label}
      <input
        id={id && `${id}-${end}`}
        type="date"
        className={classes.input}
        value={value[end]}
        max={max}
        onChange={(event) => onChange({ ...value, [end]: event.target.value })}
      />
    </label>
  );
  return (
    <>
      {day("from", "Van")}
      {day("to", "Tot en met")}
    </>
  );
}
