import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { TotpSetup } from "@lease/contracts";
import { useState } from "react";
import { userErrorMessage } from "../../api/client";
import { useNotice } from "../../components/notice";
import { Button, LoadError, LoadingText, TextField } from "../../components/ui";
import { ADMIN_KEYS, confirmTotp, disableTotp, fetchAccount, startTotpSetup } from "../api";
import { useForm } from "../../lib/use-form";
import { QrCode } from "../components/QrCode";

/**
 * Two-factor sign-in: set up with the password, a QR code and a first code (other sessions end),
 * ten recovery codes; off with the password and a code or recovery code.
 */
export function TwoFactorSection() {
  const queryClient = useQueryClient();
  const { notify } = useNotice();
  const account = useQuery({ queryKey: ADMIN_KEYS.account, queryFn: fetchAccount, staleTime: 0 });
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  // Setting up starts with the password: asking is true while its field shows.
  const [asking, setAsking] = useState(false);
  const failed = (title: string) => (error: unknown) =>
    notify({ title, description: userErrorMessage(error, "Probeer het opnieuw."), variant: "destructive" });
  const PASSWORD_REQUIRED = "Huidig wachtwoord is verplicht";

  const start = useForm({
    initial: { currentPassword: "" },
    validate: (values) => ({ currentPassword: values.currentPassword ? undefined : PASSWORD_REQUIRED }),
    submit: (values) => startTotpSetup(values.currentPassword),
    onSuccess: (answer) => {
      setSetup(answer);
      setAsking(false);
      confirm.cancel();
    },
    onFailed: (error, fields) => {
      if (!fields.currentPassword) failed("Instellen mislukt")(error);
    },
  });
  const confirm = useForm({
    initial: { code: "" },
    validate: (values) => ({
      code: /^\d{6}$/.test(values.code.replace(/\s/g, ""))
        ? undefined
        : "Vul de 6 cijfers uit je authenticator-app in",
    }),
    submit: (values) => confirmTotp(values.code.replace(/\s/g, "")),
    onSuccess: ({ codes }) => {
      setSetup(null);
      setRecoveryCodes(codes);
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.account });
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.users });
      notify({
        title: "Tweestapsverificatie staat aan",
        description: "Bewaar je herstelcodes goed. Je andere sessies zijn beëindigd.",
      });
    },
    onFailed: (error, fields) => {
      if (!fields.code) failed("Bevestigen mislukt")(error);
    },
  });
  const turnOff = useForm({
    initial: { currentPassword: "", code: "" },
    validate: (values) => ({
      currentPassword: values.currentPassword ? undefined : PASSWORD_REQUIRED,
      code: values.code.trim() ? undefined : "Vul een code uit je authenticator-app of een herstelcode in",
    }),
    submit: (values) => disableTotp(values.currentPassword, values.code.trim()),
    onSuccess: (answer) => {
      queryClient.setQueryData(ADMIN_KEYS.account, answer);
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.users });
      setRecoveryCodes(null);
      notify({ title: "Tweestapsverificatie staat uit" });
    },
    onFailed: (error, fields) => {
      if (!fields.currentPassword && !fields.code) failed("Uitzetten mislukt")(error);
    },
  });

  const passwordField = (form: Pick<typeof start, "pending" | "text">, id: string, label: string) => (
    <TextField
      id={id}
      label={label}
      type="password"
      autoComplete="current-password"
      disabled={form.pending}
      {...form.text("currentPassword")}
    />
  );

  if (account.isError && !account.data)
    return <LoadError query={account} fallback="Je account kon niet worden geladen." />;
  if (!account.data) return <LoadingText />;
  const on = account.data.totpEnabled;
  return (
    <section className="space-y-4" aria-labelledby="tweestaps-titel">
      <h3 id="tweestaps-titel" className="font-semibold text-gray-900">
        Tweestapsverificatie
      </h3>
      <p className="text-sm text-gray-700" data-testid="tweestaps-status">
        {on
          ? `Staat aan: bij het inloggen vraagt het beheer een code uit je authenticator-app. ${account.data.recoveryCodesLeft} herstelcodes over.`
          : "Staat uit. Zet het aan om bij het inloggen ook een code uit een authenticator-app te vragen."}
      </p>
      {recoveryCodes && (
        <div className="rounded-card border border-yellow-300 bg-yellow-50 p-4" data-testid="herstelcodes">
          <p className="font-semibold text-yellow-900">Je herstelcodes</p>
          <p className="mt-1 text-sm text-yellow-900">
            Bewaar ze op een veilige plek: ze worden maar één keer getoond. Elke code werkt één keer, als je
            je telefoon niet bij de hand hebt.
          </p>
          <ul className="mt-3 grid grid-cols-2 gap-1 font-mono text-sm text-gray-900">
            {recoveryCodes.map((recovery) => (
              <li key={recovery}>{recovery}</li>
            ))}
          </ul>
          <Button variant="secondary" className="mt-3" onClick={() => setRecoveryCodes(null)}>
            Ik heb ze bewaard
          </Button>
        </div>
      )}
      {!on && !setup && !asking && (
        <Button onClick={() => setAsking(true)}>Tweestapsverificatie instellen</Button>
      )}
      {!on && !setup && asking && (
        <form className="space-y-4" noValidate onSubmit={start.onSubmit}>
          <p className="text-sm text-gray-700">
            Vul eerst je wachtwoord in. Na het aanzetten worden je andere sessies beëindigd.
          </p>
          {passwordField(start, "instellen-wachtwoord", "Je wachtwoord, om in te stellen")}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={start.pending}>
              Doorgaan
            </Button>
            <Button
              variant="secondary"
              onClick={() => {
                setAsking(false);
                start.cancel();
              }}
            >
              Annuleren
            </Button>
          </div>
        </form>
      )}
      {!on && setup && (
        <form className="space-y-4" noValidate onSubmit={confirm.onSubmit}>
          <p className="text-sm text-gray-700">
            Scan de QR-code met je authenticator-app (bijvoorbeeld Google Authenticator of Microsoft
            Authenticator) en vul de code in die de app toont.
          </p>
          <QrCode value={setup.uri} label="QR-code voor je authenticator-app" />
          <p className="text-sm text-gray-700">
            Kun je niet scannen? Vul deze sleutel in de app in:{" "}
            <code className="font-mono break-all" data-testid="totp-sleutel">
              {setup.secret}
            </code>
          </p>
          <TextField
            id="totp-code"
            label="Code uit de app"
            inputMode="numeric"
            autoComplete="one-time-code"
            disabled={confirm.pending}
            {...confirm.text("code")}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={confirm.pending}>
              Bevestigen en aanzetten
            </Button>
            <Button variant="secondary" onClick={() => setSetup(null)}>
              Annuleren
            </Button>
          </div>
        </form>
      )}
      {on && (
        <form className="space-y-4" noValidate onSubmit={turnOff.onSubmit}>
          {passwordField(turnOff, "uitzetten-wachtwoord", "Je wachtwoord, om uit te zetten")}
          <TextField
            id="uitzetten-code"
            label="Code uit de app of herstelcode"
            autoComplete="one-time-code"
            disabled={turnOff.pending}
            {...turnOff.text("code")}
          />
          <Button variant="danger" type="submit" disabled={turnOff.pending}>
            Tweestapsverificatie uitzetten
          </Button>
        </form>
      )}
    </section>
  );
}
