import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TotpSetup } from "@lease/contracts";
import { useState } from "react";
import { fieldErrors, userErrorMessage } from "../../api/client";
import { useNotice } from "../../components/notice";
import { Button, LoadError, LoadingText, TextField } from "../../components/ui";
import { ADMIN_KEYS, confirmTotp, disableTotp, fetchAccount, startTotpSetup } from "../api";
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
  const [code, setCode] = useState("");
  const [codeError, setCodeError] = useState<string>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [password, setPassword] = useState("");
  const [passwordError, setPasswordError] = useState<string>();
  const [offCode, setOffCode] = useState("");
  const [offCodeError, setOffCodeError] = useState<string>();
  // Setting up starts with the password: asking is true while its field shows.
  const [asking, setAsking] = useState(false);
  const failed = (title: string) => (error: unknown) =>
    notify({ title, description: userErrorMessage(error, "Probeer het opnieuw."), variant: "destructive" });

  const start = useMutation({
    mutationFn: () => startTotpSetup(password),
    onSuccess: (answer) => {
      setSetup(answer);
      setAsking(false);
      setPassword("");
      setPasswordError(undefined);
      setCode("");
      setCodeError(undefined);
    },
    onError: (error) => {
      const fields = fieldErrors(error);
      if (fields.currentPassword) setPasswordError(fields.currentPassword);
      else failed("Instellen mislukt")(error);
    },
  });
  const confirm = useMutation({
    mutationFn: () => confirmTotp(code.replace(/\s/g, "")),
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
    onError: (error) => {
      const fields = fieldErrors(error);
      if (fields.code) setCodeError(fields.code);
      else failed("Bevestigen mislukt")(error);
    },
  });
  const turnOff = useMutation({
    mutationFn: () => disableTotp(password, offCode.trim()),
    onSuccess: (answer) => {
      queryClient.setQueryData(ADMIN_KEYS.account, answer);
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.users });
      setPassword("");
      setPasswordError(undefined);
      setOffCode("");
      setOffCodeError(undefined);
      setRecoveryCodes(null);
      notify({ title: "Tweestapsverificatie staat uit" });
    },
    onError: (error) => {
      const fields = fieldErrors(error);
      if (fields.currentPassword || fields.code) {
        setPasswordError(fields.currentPassword);
        setOffCodeError(fields.code);
      } else failed("Uitzetten mislukt")(error);
    },
  });

  const passwordField = (id: string, label: string, pending: boolean) => (
    <TextField
      id={id}
      label={label}
      error={passwordError}
      type="password"
      autoComplete="current-password"
      value={password}
      disabled={pending}
      onChange={setPassword}
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
        <form
          className="space-y-4"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (!password) setPasswordError("Huidig wachtwoord is verplicht");
            else start.mutate();
          }}
        >
          <p className="text-sm text-gray-700">
            Vul eerst je wachtwoord in. Na het aanzetten worden je andere sessies beëindigd.
          </p>
          {passwordField("instellen-wachtwoord", "Je wachtwoord, om in te stellen", start.isPending)}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={start.isPending}>
              Doorgaan
            </Button>
            <Button
              variant="secondary"
              onClick={() => {
                setAsking(false);
                setPassword("");
                setPasswordError(undefined);
              }}
            >
              Annuleren
            </Button>
          </div>
        </form>
      )}
      {!on && setup && (
        <form
          className="space-y-4"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (!/^\d{6}$/.test(code.replace(/\s/g, "")))
              setCodeError("Vul de 6 cijfers uit je authenticator-app in");
            else confirm.mutate();
          }}
        >
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
            error={codeError}
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            disabled={confirm.isPending}
            onChange={setCode}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={confirm.isPending}>
              Bevestigen en aanzetten
            </Button>
            <Button variant="secondary" onClick={() => setSetup(null)}>
              Annuleren
            </Button>
          </div>
        </form>
      )}
      {on && (
        <form
          className="space-y-4"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const missingPassword = password ? undefined : "Huidig wachtwoord is verplicht";
            const missingCode = offCode.trim()
              ? undefined
              : "Vul een code uit je authenticator-app of een herstelcode in";
            setPasswordError(missingPassword);
            setOffCodeError(missingCode);
            if (!missingPassword && !missingCode) turnOff.mutate();
          }}
        >
          {passwordField("uitzetten-wachtwoord", "Je wachtwoord, om uit te zetten", turnOff.isPending)}
          <TextField
            id="uitzetten-code"
            label="Code uit de app of herstelcode"
            error={offCodeError}
            autoComplete="one-time-code"
            value={offCode}
            disabled={turnOff.isPending}
            onChange={setOffCode}
          />
          <Button variant="danger" type="submit" disabled={turnOff.isPending}>
            Tweestapsverificatie uitzetten
          </Button>
        </form>
      )}
    </section>
  );
}
