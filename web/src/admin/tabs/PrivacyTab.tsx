import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  EMAIL_MESSAGE,
  PRIVACY_KIND_LABELS,
  PrivacySearchBody,
  type PrivacyErasure,
  type PrivacySummary,
} from "@lease/contracts";
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { userErrorMessage } from "../../api/client";
import { downloadPersonalData, erasePersonalData, searchPersonalData } from "../api";
import { Button, LIST_HEAD, Panel, Table, TableCell, TableRow, TextField } from "../../components/ui";
import { useForm } from "../../lib/use-form";
import { formatAmsterdamDateTime } from "../lib/format";

type Result = { tone: "ok" | "error"; text: string };
const PRIVACY_HEAD = ["Soort gegevens", "Aantal", "Oudste", "Nieuwste"] as const;

/**
 * "Privacy": everything held about one e-mail address (AVG): what and how much, exported as one
 * JSON file, or erased everywhere after a confirmation.
 */
export function PrivacyTab() {
  const queryClient = useQueryClient();
  // The address the summary below belongs to (export and erasure act on it, not on the input).
  const [email, setEmail] = useState<string | null>(null);
  const [summary, setSummary] = useState<PrivacySummary | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const eraseButton = useRef<HTMLButtonElement>(null);

  // The confirmation takes the focus when it opens, on its safe choice (Enter does not erase).
  useEffect(() => {
    if (confirming) cancelButton.current?.focus();
  }, [confirming]);

  /** Escape cancels the confirmation and gives the focus back to "Wissen". */
  const closeConfirmation = () => {
    setConfirming(false);
    eraseButton.current?.focus();
  };
  const onConfirmationKey = (event: KeyboardEvent) => {
    if (event.key === "Escape" && !erase.isPending) {
      event.preventDefault();
      closeConfirmation();
    }
  };

  // The address as typed stays in the field; the summary's address is the one the contract reads.
  const search = useForm({
    initial: { email: "" },
    validate: ({ email: typed }) => ({
      email: PrivacySearchBody.safeParse({ email: typed }).success ? undefined : EMAIL_MESSAGE,
    }),
    keepValues: true,
    submit: async ({ email: typed }) => {
      const address = PrivacySearchBody.parse({ email: typed }).email;
      return { address, found: await searchPersonalData(address) };
    },
    onSuccess: ({ address, found }) => {
      setEmail(address);
      setSummary(found);
    },
    serverErrors: () => ({}),
    onFailed: (error) =>
      setResult({ tone: "error", text: userErrorMessage(error, "Zoeken is mislukt. Probeer het opnieuw.") }),
  });
  const exporting = useMutation({
    mutationFn: (address: string) => downloadPersonalData(address),
    onSuccess: () =>
      setResult({
        tone: "ok",
        text: "De gegevens zijn geëxporteerd: één overzicht voor de persoon (JSON-bestand).",
      }),
    onError: (error) =>
      setResult({
        tone: "error",
        text: userErrorMessage(error, "Exporteren is mislukt. Probeer het opnieuw."),
      }),
  });
  const erase = useMutation({
    mutationFn: (address: string) => erasePersonalData(address),
    onSuccess: async (erased: PrivacyErasure, address) => {
      setConfirming(false);
      setResult({ tone: "ok", text: erasedMessage(erased) });
      // Lists elsewhere in the panel may have shown this person.
      void queryClient.invalidateQueries();
      setSummary(await searchPersonalData(address).catch(() => null));
    },
    onError: (error) => {
      setConfirming(false);
      setResult({ tone: "error", text: userErrorMessage(error, "Wissen is mislukt. Probeer het opnieuw.") });
    },
  });

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    setConfirming(false);
    void search.submit();
  };

  const busy = search.pending || exporting.isPending || erase.isPending;
  const held = summary?.kinds.filter((kind) => kind.count > 0) ?? [];

  return (
    <Panel title="Gegevens van een persoon">
      <p className="mb-4 text-sm text-gray-700">
        Zoek alles wat over een e-mailadres is opgeslagen: de aanvragen en berichten van die persoon, de
        e-mails van en aan dat adres, de notities en statuswijzigingen bij de aanvragen en de herkomst van het
        bezoek. Exporteer het als één overzicht voor de persoon of wis het op verzoek (AVG). Waar het adres
        alleen genoemd wordt, zoals in het bericht van iemand anders, blijft dat bericht staan en wordt het
        adres bij het wissen vervangen door [gewist]. Adressen van het bedrijf zelf en van beheerders worden
        niet gezocht. Het logboek vermeldt een export of wissing zonder het adres.
      </p>
      <form className="mb-6 flex flex-wrap items-end gap-3" onSubmit={onSearch} noValidate>
        <div className="min-w-64 flex-1">
          <TextField
            id="privacy-email"
            label="E-mailadres"
            type="email"
            maxLength={254}
            autoComplete="off"
            {...search.text("email")}
          />
        </div>
        <Button type="submit" disabled={busy}>
          {search.pending ? "Zoeken..." : "Zoeken"}
        </Button>
      </form>

      {result && (
        <p
          role={result.tone === "error" ? "alert" : "status"}
          className={`mb-4 rounded-card border p-3 text-sm ${
            result.tone === "error"
              ? "border-red-300 bg-red-50 text-red-800"
              : "border-green-300 bg-green-50 text-green-800"
          }`}
        >
          {result.text}
        </p>
      )}

      {summary && email && (
        <section aria-labelledby="privacy-resultaat">
          <h3 id="privacy-resultaat" className="mb-2 font-semibold text-gray-900">
            Opgeslagen over {email}
          </h3>
          {held.length === 0 ? (
            <p className="py-4 text-gray-700">Niets gevonden over dit e-mailadres.</p>
          ) : (
            <>
              <Table className="min-w-full text-left text-sm" head={PRIVACY_HEAD} {...LIST_HEAD}>
                {held.map((kind) => (
                  <TableRow key={kind.kind} className="border-b border-gray-100">
                    <TableCell label={PRIVACY_HEAD[0]} className="py-2 pr-4">
                      {PRIVACY_KIND_LABELS[kind.kind]}
                    </TableCell>
                    <TableCell label={PRIVACY_HEAD[1]} className="py-2 pr-4">
                      {kind.count}
                    </TableCell>
                    <TableCell label={PRIVACY_HEAD[2]} className="py-2 pr-4">
                      {formatAmsterdamDateTime(kind.first)}
                    </TableCell>
                    <TableCell label={PRIVACY_HEAD[3]} className="py-2">
                      {formatAmsterdamDateTime(kind.last)}
                    </TableCell>
                  </TableRow>
                ))}
              </Table>
              <div className="mt-4 flex flex-wrap gap-3">
                <Button variant="secondary" disabled={busy} onClick={() => exporting.mutate(email)}>
                  {exporting.isPending ? "Exporteren..." : "Exporteren (JSON)"}
                </Button>
                <Button
                  ref={eraseButton}
                  variant="danger"
                  disabled={busy}
                  onClick={() => setConfirming(true)}
                >
                  Wissen
                </Button>
              </div>
              {confirming && (
                <div
                  role="alertdialog"
                  aria-modal="false"
                  aria-labelledby="privacy-bevestig-titel"
                  aria-describedby="privacy-bevestig-tekst"
                  className="mt-4 rounded-card border border-red-300 bg-red-50 p-4"
                  onKeyDown={onConfirmationKey}
                >
                  <h4 id="privacy-bevestig-titel" className="font-semibold text-red-900">
                    Alle gegevens van {email} wissen?
                  </h4>
                  <p id="privacy-bevestig-tekst" className="mt-1 text-sm text-red-900">
                    {summary.total} {summary.total === 1 ? "gegeven wordt" : "gegevens worden"} in alle
                    onderdelen definitief verwijderd; waar het adres in berichten van anderen staat, wordt het
                    vervangen door [gewist]. Dit kan niet ongedaan worden gemaakt.
                  </p>
                  <div className="mt-3 flex flex-wrap gap-3">
                    <Button variant="danger" disabled={erase.isPending} onClick={() => erase.mutate(email)}>
                      {erase.isPending ? "Wissen..." : "Ja, definitief wissen"}
                    </Button>
                    <Button
                      ref={cancelButton}
                      variant="secondary"
                      disabled={erase.isPending}
                      onClick={closeConfirmation}
                    >
                      Annuleren
                    </Button>
                  </div>
                </div>
              )}
            </>
          )}
        </section>
      )}
    </Panel>
  );
}

function erasedMessage(erased: PrivacyErasure): string {
  const rows = Object.entries(erased.removed)
    .filter(([kind]) => kind in PRIVACY_KIND_LABELS)
    .reduce((n, [, count]) => n + count, 0);
  return rows === 0
    ? "Er was niets (meer) te wissen voor dit e-mailadres."
    : `Gewist: ${rows} ${rows === 1 ? "gegeven" : "gegevens"} over dit e-mailadres, in alle onderdelen.`;
}
