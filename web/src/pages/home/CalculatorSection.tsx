import { useRef, useState } from "react";
import { buttonClass, Section, SectionHeading } from "../../components/ui";
import { useEarlyInput } from "../../lib/early-input";
import { useHydrated } from "../../lib/hydrated";
import {
  CALCULATOR_DEFAULTS,
  CALCULATOR_FIELD_IDS,
  DOWN_PAYMENT_STEP,
  calculateLease,
  downPaymentAfterPriceChange,
  LETTERS_REMOVED_NOTE,
  formatPriceInput,
  formatRateInput,
  maxDownPayment,
  parseCarPrice,
  parseInterestRate,
  priceCorrection,
  rateCorrection,
  settledCarPrice,
  withoutLetters,
  withEarlyInput,
  type CalculatorInput,
} from "../../lib/calculator";
import { CALCULATOR_TERMS, INSURANCE_MONTHLY, MAINTENANCE_MONTHLY } from "../../lib/constants";
import { formatEuro, formatPercent } from "../../lib/format";
import { onPlainClick, useSiteNavigation } from "../../lib/navigation";

const FIELD =
  "mt-2 block w-full rounded-button border border-gray-300 bg-white px-4 py-3 text-ink focus:border-primary";

export function CalculatorSection() {
  const { goToSection } = useSiteNavigation();
  const [input, setInput] = useState<CalculatorInput>(CALCULATOR_DEFAULTS);
  const hydrated = useHydrated();
  // The two typed fields keep their text as typed (an emptied field, "4,", "25.0"): the numbers
  // follow from it, and leaving the field shows the number that was used.
  const [priceText, setPriceText] = useState(String(CALCULATOR_DEFAULTS.carPrice));
  const [rateText, setRateText] = useState(formatRateInput(CALCULATOR_DEFAULTS.annualRatePercent));
  // A slider moved or a price typed while the scripts were still loading stays as it was.
  useEarlyInput(CALCULATOR_FIELD_IDS, (early) => {
    setInput((current) => withEarlyInput(current, early, CALCULATOR_TERMS));
    if (early.carPrice !== undefined) setPriceText(early.carPrice);
    if (early.annualRatePercent !== undefined) setRateText(early.annualRatePercent);
  });
  const result = calculateLease(input);
  const downPaymentShare = input.carPrice > 0 ? Math.round((input.downPayment / input.carPrice) * 100) : 0;

  // The down payment as it was when the price field was entered: typing "30000" passes through
  // 3, 30, 300, which must not each reset it (the reset rule compares with the finished price).
  const downPaymentBeforeEdit = useRef(input.downPayment);
  // What was corrected in a typed field, said beside it (letters left out, a value brought within
  // its range), until the field is entered again.
  const [priceNote, setPriceNote] = useState<string | null>(null);
  const [rateNote, setRateNote] = useState<string | null>(null);
  const setPrice = (raw: string) => {
    setPriceText(raw);
    const carPrice = parseCarPrice(raw);
    setInput((current) => ({
      ...current,
      carPrice,
      downPayment: downPaymentAfterPriceChange(carPrice, downPaymentBeforeEdit.current),
    }));
  };
  const typePrice = (raw: string) => {
    const { text, removed } = withoutLetters(raw);
    if (removed) setPriceNote(LETTERS_REMOVED_NOTE);
    setPrice(text);
  };
  const leavePrice = () => {
    const correction = priceCorrection(priceText);
    if (correction) setPriceNote(correction);
    setPrice(formatPriceInput(settledCarPrice(input.carPrice)));
  };
  const typeRate = (raw: string) => {
    const { text, removed } = withoutLetters(raw);
    if (removed) setRateNote(LETTERS_REMOVED_NOTE);
    setRate(text);
  };
  const leaveRate = () => {
    const correction = rateCorrection(rateText);
    if (correction) setRateNote(correction);
    setRateText(formatRateInput(input.annualRatePercent));
  };
  const setRate = (raw: string) => {
    setRateText(raw);
    setInput((current) => ({ ...current, annualRatePercent: parseInterestRate(raw) }));
  };

  return (
    <Section id="calculator" labelledBy="calculator-titel" className="bg-gray-50">
      <SectionHeading
        id="calculator-titel"
        title="Lease Calculator"
        intro="Bereken in een paar seconden een indicatie van uw maandlasten. Pas de gegevens aan en zie direct het resultaat."
      />
      <div className="grid gap-8 lg:grid-cols-[3fr_2fr]">
        <form
          className="rounded-card bg-white p-6 shadow-sm ring-1 ring-gray-200 sm:p-8"
          onSubmit={(e) => e.preventDefault()}
          // Set once React runs the section: from then on a change is computed at once.
          data-hydrated={hydrated || undefined}
        >
          <div>
            <label htmlFor={CALCULATOR_FIELD_IDS.carPrice} className="font-semibold text-ink">
              Catalogusprijs van de auto
            </label>
            <input
              id={CALCULATOR_FIELD_IDS.carPrice}
              type="text"
              inputMode="numeric"
              autoComplete="off"
              value={priceText}
              onFocus={() => {
                downPaymentBeforeEdit.current = input.downPayment;
                setPriceNote(null);
              }}
              onChange={(event) => typePrice(event.target.value)}
              onBlur={leavePrice}
              aria-describedby="calc-prijs-hint calc-prijs-correctie"
              className={FIELD}
            />
            <p id="calc-prijs-hint" className="mt-1 text-sm text-muted">
              Van € 1.000 tot € 200.000, inclusief BTW en BPM
            </p>
            <FieldNote id="calc-prijs-correctie" note={priceNote} />
          </div>

          <div className="mt-6">
            <label
              htmlFor={CALCULATOR_FIELD_IDS.downPayment}
              className="flex justify-between gap-4 font-semibold text-ink"
            >
              <span>Aanbetaling</span>
              <span data-testid="calc-aanbetaling-waarde">
                {formatEuro(input.downPayment)} ({downPaymentShare}%)
              </span>
            </label>
            <input
              id={CALCULATOR_FIELD_IDS.downPayment}
              type="range"
              min={0}
              max={maxDownPayment(input.carPrice)}
              step={DOWN_PAYMENT_STEP}
              value={input.downPayment}
              onChange={(event) =>
                setInput((current) => ({ ...current, downPayment: Number(event.target.value) }))
              }
              aria-describedby="calc-aanbetaling-hint"
              aria-valuetext={formatEuro(input.downPayment)}
              className="mt-3 w-full accent-[var(--color-primary)]"
            />
            <p
              id="calc-aanbetaling-hint"
              className="mt-1 flex flex-wrap justify-between gap-x-4 text-sm text-muted"
            >
              <span>€ 0</span>
              <span>Maximaal 50% van de catalogusprijs: {formatEuro(maxDownPayment(input.carPrice))}</span>
            </p>
          </div>

          <div className="mt-6 grid gap-6 sm:grid-cols-2">
            <div>
              <label htmlFor={CALCULATOR_FIELD_IDS.termMonths} className="font-semibold text-ink">
                Looptijd
              </label>
              <select
                id={CALCULATOR_FIELD_IDS.termMonths}
                value={input.termMonths}
                onChange={(event) =>
                  setInput((current) => ({ ...current, termMonths: Number(event.target.value) }))
                }
                className={FIELD}
              >
                {CALCULATOR_TERMS.map((term) => (
                  <option key={term} value={term}>
                    {term} maanden
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor={CALCULATOR_FIELD_IDS.annualRatePercent} className="font-semibold text-ink">
                Rente (%)
              </label>
              <input
                id={CALCULATOR_FIELD_IDS.annualRatePercent}
                type="text"
                inputMode="decimal"
                autoComplete="off"
                value={rateText}
                onFocus={() => setRateNote(null)}
                onChange={(event) => typeRate(event.target.value)}
                onBlur={leaveRate}
                aria-describedby="calc-rente-hint calc-rente-correctie"
                className={FIELD}
              />
              <p id="calc-rente-hint" className="mt-1 text-sm text-muted">
                Jaarlijks percentage, 0%-20%
              </p>
              <FieldNote id="calc-rente-correctie" note={rateNote} />
            </div>
          </div>

          <fieldset className="mt-6">
            <legend className="font-semibold text-ink">Extra diensten</legend>
            <div className="mt-3 grid gap-3 sm:grid-cols-2">
              <ExtraServiceToggle
                id={CALCULATOR_FIELD_IDS.insurance}
                label="Verzekering"
                monthly={INSURANCE_MONTHLY}
                checked={input.insurance}
                onChange={(insurance) => setInput((current) => ({ ...current, insurance }))}
              />
              <ExtraServiceToggle
                id={CALCULATOR_FIELD_IDS.maintenance}
                label="Onderhoud"
                monthly={MAINTENANCE_MONTHLY}
                checked={input.maintenance}
                onChange={(maintenance) => setInput((current) => ({ ...current, maintenance }))}
              />
            </div>
          </fieldset>
        </form>

        <div className="flex flex-col gap-6">
          <div
            className="bg-hero rounded-card p-6 text-white shadow-sm sm:p-8"
            aria-live="polite"
            data-testid="calc-resultaat"
          >
            <h3 className="text-lg font-semibold text-white/90">Uw indicatieve maandlasten</h3>
            <p className="mt-2 text-5xl font-bold whitespace-nowrap" data-testid="calc-maandbedrag">
              {formatEuro(result.monthlyPayment)}
            </p>
            <p className="text-white/80">per maand</p>
            <dl className="mt-6 space-y-3 border-t border-white/20 pt-6">
              <ResultRow label="Basis leasebedrag" value={result.baseLease} testId="calc-basis" />
              <ResultRow label="Extra diensten" value={result.additionalCosts} testId="calc-extra" />
              <ResultRow label="Totale rente" value={result.totalInterest} testId="calc-rente-totaal" />
              <ResultRow label="Totale kosten" value={result.totalCost} testId="calc-totaal" />
            </dl>
            <p className="mt-4 text-sm text-white/80">
              Op basis van {input.termMonths} maanden en {formatPercent(input.annualRatePercent)} rente.
            </p>
          </div>
          <div
            className="rounded-card border border-amber-300 bg-amber-50 p-5 text-sm text-amber-950"
            role="note"
          >
            <p className="font-semibold">Let op</p>
            <ul className="mt-2 list-disc space-y-1 pl-5">
              <li>Deze berekening is uitsluitend indicatief.</li>
              <li>De werkelijke voorwaarden kunnen afwijken.</li>
              <li>Een BKR-toetsing kan invloed hebben op de rente.</li>
              <li>Vraag een vrijblijvende offerte aan voor exacte prijzen.</li>
            </ul>
          </div>
          <a
            href="#aanvraag"
            onClick={onPlainClick(() => goToSection("aanvraag"))}
            className={buttonClass("primary", "w-full")}
          >
            Vrijblijvende Offerte Aanvragen
          </a>
        </div>
      </div>
    </Section>
  );
}

/** What was corrected in the field above; always in the page (empty) so a screen reader hears it change. */
function FieldNote({ id, note }: { id: string; note: string | null }) {
  return (
    <p id={id} role="status" className="mt-1 text-sm font-medium text-amber-800 empty:hidden">
      {note ?? ""}
    </p>
  );
}

function ResultRow({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-white/85">{label}</dt>
      <dd className="font-semibold whitespace-nowrap" data-testid={testId}>
        {formatEuro(value)}
      </dd>
    </div>
  );
}

function ExtraServiceToggle(props: {
  id: string;
  label: string;
  monthly: number;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="flex items-center gap-3 rounded-button border border-gray-200 p-3">
      <input
        id={props.id}
        type="checkbox"
        checked={props.checked}
        onChange={(event) => props.onChange(event.target.checked)}
        className="h-5 w-5 accent-[var(--color-primary)]"
      />
      <span className="text-ink">
        {props.label} <span className="text-muted">(+{formatEuro(props.monthly)} p/m)</span>
      </span>
    </label>
  );
}
