import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  ADMIN_USERNAME_MESSAGE,
  ADMIN_USERNAME_PATTERN,
  NEW_PASSWORD_MIN_LENGTH,
  type AdminUser,
  type TotpSetup,
} from "@lease/contracts";
import { useState, type FormEvent } from "react";
import { fieldErrors, userErrorMessage } from "../../api/client";
import { useNotice } from "../../components/notice";
import {
  ADMIN_KEYS,
  changePassword,
  confirmTotp,
  createUser,
  disableTotp,
  fetchAccount,
  fetchMe,
  fetchUsers,
  removeUser,
  resetUserTotp,
  setUserDisabled,
  startTotpSetup,
} from "../api";
import { Badge, Button, Field, inputClass, LoadError, LoadingText, Panel } from "../../components/ui";
import { QrCode } from "../components/QrCode";
import { formatAmsterdamDateTime } from "../lib/format";
import { NoticesForm, TakesNewLeadsSwitch, useHandOnText } from "./LeadRouting";
import { ResponseSettingsPanel } from "./ResponseSettingsPanel";

const NEW_PASSWORD_TOO_SHORT = `Het wachtwoord moet minimaal ${NEW_PASSWORD_MIN_LENGTH} tekens hebben`;
const PASSWORDS_DIFFER = "De wachtwoorden zijn niet gelijk";

/** "Gebruikers": one's own account (password, two-factor sign-in) and the team of admins. */
export function UsersTab() {
  return (
    <div className="space-y-6">
      <AccountPanel />
      <TeamPanel />
      <ResponseSettingsPanel />
    </div>
  );
}

function AccountPanel() {
  // Two-factor sign-in and the notices read the same account: when it cannot be loaded, that is
  // said once, with one way to try again, instead of once per part.
  const account = useQuery({ queryKey: ADMIN_KEYS.account, queryFn: fetchAccount, staleTime: 0 });
  return (
    <Panel title="Mijn account">
      <div className="grid gap-8 lg:grid-cols-2">
        <ChangePasswordForm />
        {account.isError && !account.data ? (
          <LoadError query={account} fallback="Je account kon niet worden geladen." />
        ) : (
          <>
            <TwoFactor />
            <NoticesForm />
          </>
        )}
      </div>
    </Panel>
  );
}

function ChangePasswordForm() {
  const queryClient = useQueryClient();
  const { notify } = useNotice();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [repeat, setRepeat] = useState("");
  const [errors, setErrors] = useState<{ currentPassword?: string; newPassword?: string; repeat?: string }>(
    {},
  );
  const mutation = useMutation({
    mutationFn: () => changePassword(current, next),
    onSuccess: (session) => {
      queryClient.setQueryData(ADMIN_KEYS.me, session);
      setCurrent("");
      setNext("");
      setRepeat("");
      notify({
        title: "Wachtwoord gewijzigd",
        description: "Je andere sessies zijn beëindigd; hier blijf je ingelogd.",
      });
    },
    onError: (error) => {
      const fields = fieldErrors(error);
      if (fields.currentPassword || fields.newPassword) setErrors(fields);
      else
        notify({
          title: "Wijzigen mislukt",
          description: userErrorMessage(error, "Het wachtwoord kon niet worden gewijzigd."),
          variant: "destructive",
        });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = {
      currentPassword: current ? undefined : "Huidig wachtwoord is verplicht",
      newPassword: next.length < NEW_PASSWORD_MIN_LENGTH ? NEW_PASSWORD_TOO_SHORT : undefined,
      repeat: repeat !== next ? PASSWORDS_DIFFER : undefined,
    };
    setErrors(found);
    if (!found.currentPassword && !found.newPassword && !found.repeat) mutation.mutate();
  };
  const field = (
    id: string,
    label: string,
    value: string,
    set: (value: string) => void,
    error: string | undefined,
    autoComplete: string,
  ) => (
    <Field look="admin" id={id} label={label} error={error}>
      <input
        id={id}
        type="password"
        autoComplete={autoComplete}
        className={inputClass("admin")}
        value={value}
        disabled={mutation.isPending}
        onChange={(event) => set(event.target.value)}
      />
    </Field>
  );
  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-labelledby="wachtwoord-wijzigen">
      <h3 id="wachtwoord-wijzigen" className="font-semibold text-gray-900">
        Wachtwoord wijzigen
      </h3>
      {field(
        "huidig-wachtwoord",
        "Huidig wachtwoord",
        current,
        setCurrent,
        errors.currentPassword,
        "current-password",
      )}
      {field("nieuw-wachtwoord", "Nieuw wachtwoord", next, setNext, errors.newPassword, "new-password")}
      {field(
        "herhaal-wachtwoord",
        "Herhaal nieuw wachtwoord",
        repeat,
        setRepeat,
        errors.repeat,
        "new-password",
      )}
      <p className="text-xs text-gray-600">Al je andere sessies worden daarbij beëindigd.</p>
      <Button type="submit" disabled={mutation.isPending}>
        {mutation.isPending ? "Opslaan..." : "Wachtwoord wijzigen"}
      </Button>
    </form>
  );
}

/**
 * Two-factor sign-in: set up with the password, a QR code and a first code (other sessions end),
 * ten recovery codes; off with the password and a code or recovery code.
 */
function TwoFactor() {
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
    <Field look="admin" id={id} label={label} error={passwordError}>
      <input
        id={id}
        type="password"
        autoComplete="current-password"
        className={inputClass("admin")}
        value={password}
        disabled={pending}
        onChange={(event) => setPassword(event.target.value)}
      />
    </Field>
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
          <Field look="admin" id="totp-code" label="Code uit de app" error={codeError}>
            <input
              id="totp-code"
              inputMode="numeric"
              autoComplete="one-time-code"
              className={inputClass("admin")}
              value={code}
              disabled={confirm.isPending}
              onChange={(event) => setCode(event.target.value)}
            />
          </Field>
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
          <Field look="admin" id="uitzetten-code" label="Code uit de app of herstelcode" error={offCodeError}>
            <input
              id="uitzetten-code"
              autoComplete="one-time-code"
              className={inputClass("admin")}
              value={offCode}
              disabled={turnOff.isPending}
              onChange={(event) => setOffCode(event.target.value)}
            />
          </Field>
          <Button variant="danger" type="submit" disabled={turnOff.isPending}>
            Tweestapsverificatie uitzetten
          </Button>
        </form>
      )}
    </section>
  );
}

interface OneTimePassword {
  username: string;
  password: string;
}
/** The one-time passwords on screen, kept while the tab is closed (this page's memory only). */
let shownPasswords: { adminId?: string; items: OneTimePassword[] } = { items: [] };

function TeamPanel() {
  const queryClient = useQueryClient();
  const { notify } = useNotice();
  const me = useQuery({ queryKey: ADMIN_KEYS.me, queryFn: fetchMe, retry: false });
  const users = useQuery({ queryKey: ADMIN_KEYS.users, queryFn: fetchUsers, staleTime: 0 });
  const [username, setUsername] = useState("");
  const [usernameError, setUsernameError] = useState<string>();
  // Each new admin's one-time password stays until dismissed (it is shown this once only), also
  // while another admin is created, an attempt fails or another tab is open meanwhile; only for the
  // admin who created it (kept in memory, never stored).
  const [created, setCreatedState] = useState<OneTimePassword[]>(() =>
    shownPasswords.adminId && shownPasswords.adminId === me.data?.admin.id ? shownPasswords.items : [],
  );
  const setCreated = (change: (shown: OneTimePassword[]) => OneTimePassword[]) =>
    setCreatedState((shown) => {
      const items = change(shown);
      shownPasswords = { adminId: me.data?.admin.id, items };
      return items;
    });
  const reload = () => queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.users });
  const failed = (title: string) => (error: unknown) =>
    notify({ title, description: userErrorMessage(error, "Probeer het opnieuw."), variant: "destructive" });

  const create = useMutation({
    mutationFn: () => createUser(username.trim()),
    onSuccess: (answer) => {
      setCreated((shown) => [...shown, { username: answer.user.username, password: answer.oneTimePassword }]);
      setUsername("");
      void reload();
    },
    onError: (error) => {
      const fields = fieldErrors(error);
      if (fields.username) setUsernameError(fields.username);
      else failed("Aanmaken mislukt")(error);
    },
  });
  const toggle = useMutation({
    mutationFn: (user: AdminUser) => setUserDisabled(user.id, !user.disabled),
    onSuccess: (user) => {
      notify({
        title: user.disabled ? "Uitgeschakeld" : "Ingeschakeld",
        description: user.disabled
          ? `${user.username} kan niet meer inloggen; alle sessies zijn beëindigd.`
          : `${user.username} kan weer inloggen.`,
      });
      void reload();
    },
    onError: failed("Wijzigen mislukt"),
  });
  const resetTotp = useMutation({
    mutationFn: (user: AdminUser) => resetUserTotp(user.id),
    onSuccess: (user) => {
      notify({
        title: "Tweestapsverificatie gereset",
        description: `${user.username} logt weer in met alleen het wachtwoord en kan het opnieuw instellen.`,
      });
      void reload();
    },
    onError: failed("Resetten mislukt"),
  });
  const remove = useMutation({
    mutationFn: (user: AdminUser) => removeUser(user.id),
    onSuccess: (_answer, user) => {
      notify({ title: "Verwijderd", description: `${user.username} is verwijderd.` });
      void reload();
    },
    onError: failed("Verwijderen mislukt"),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const name = username.trim();
    const problem = !name
      ? "Gebruikersnaam is verplicht"
      : ADMIN_USERNAME_PATTERN.test(name)
        ? undefined
        : ADMIN_USERNAME_MESSAGE;
    setUsernameError(problem);
    if (!problem) create.mutate();
  };

  const handOnText = useHandOnText();
  const self = me.data?.admin.username;
  /** The buttons for another admin (none for oneself), the same in the table and on a card. */
  const actionsFor = (user: AdminUser) =>
    user.username !== self && (
      <span className="flex flex-wrap justify-end gap-2">
        <Button
          variant="secondary"
          disabled={toggle.isPending}
          aria-label={`${user.disabled ? "Inschakelen" : "Uitschakelen"}: ${user.username}`}
          onClick={() => {
            // Disabling hands the admin's open leads on: said before it happens.
            if (
              user.disabled ||
              window.confirm(
                `${user.username} uitschakelen? ${user.username} kan dan niet meer inloggen. ${handOnText(user.username)}`,
              )
            )
              toggle.mutate(user);
          }}
        >
          {user.disabled ? "Inschakelen" : "Uitschakelen"}
        </Button>
        {user.totpEnabled && (
          <Button
            variant="secondary"
            disabled={resetTotp.isPending}
            aria-label={`Tweestapsverificatie resetten: ${user.username}`}
            onClick={() => {
              if (
                window.confirm(
                  `Tweestapsverificatie van ${user.username} uitzetten? Dat is voor een verloren telefoon; ${user.username} wordt uitgelogd.`,
                )
              )
                resetTotp.mutate(user);
            }}
          >
            2FA resetten
          </Button>
        )}
        <Button
          variant="danger"
          disabled={remove.isPending}
          aria-label={`Verwijderen: ${user.username}`}
          onClick={() => {
            if (
              window.confirm(
                `Weet je zeker dat je ${user.username} wilt verwijderen? ${handOnText(user.username)}`,
              )
            )
              remove.mutate(user);
          }}
        >
          Verwijderen
        </Button>
      </span>
    );
  const statusBadges = (user: AdminUser) => (
    <span className="inline-flex flex-wrap gap-1">
      <Badge tone={user.disabled ? "gray" : "green"}>{user.disabled ? "Uitgeschakeld" : "Actief"}</Badge>
      {user.mustChangePassword && <Badge tone="yellow">Eenmalig wachtwoord</Badge>}
    </span>
  );
  const lastLogin = (user: AdminUser) =>
    user.lastLoginAt ? formatAmsterdamDateTime(user.lastLoginAt) : "Nog nooit";
  return (
    <Panel title="Beheerders">
      <form onSubmit={submit} noValidate className="mb-6 flex flex-wrap items-end gap-3">
        <div className="min-w-60 flex-1">
          <Field
            look="admin"
            id="nieuwe-gebruiker"
            label="Nieuwe beheerder (gebruikersnaam)"
            error={usernameError}
          >
            <input
              id="nieuwe-gebruiker"
              autoComplete="off"
              className={inputClass("admin")}
              value={username}
              disabled={create.isPending}
              onChange={(event) => setUsername(event.target.value)}
            />
          </Field>
        </div>
        <Button type="submit" disabled={create.isPending}>
          Beheerder aanmaken
        </Button>
      </form>
      {created.map((shown) => (
        <div
          key={shown.username}
          className="mb-6 rounded-card border border-green-300 bg-green-50 p-4 text-sm text-green-900"
          role="status"
          data-testid="eenmalig-wachtwoord"
        >
          <p className="font-semibold">Beheerder {shown.username} is aangemaakt</p>
          <p className="mt-1">
            Eenmalig wachtwoord:{" "}
            <code className="rounded bg-white px-1.5 py-0.5 font-mono text-gray-900" data-testid="wachtwoord">
              {shown.password}
            </code>
          </p>
          <p className="mt-1">
            Geef het veilig door: het wordt maar één keer getoond en werkt 72 uur. Bij de eerste keer inloggen
            kiest {shown.username} een eigen wachtwoord.
          </p>
          <Button
            variant="secondary"
            className="mt-3"
            aria-label={`Sluiten: eenmalig wachtwoord van ${shown.username}`}
            onClick={() => setCreated((all) => all.filter((c) => c !== shown))}
          >
            Sluiten
          </Button>
        </div>
      ))}
      {users.isError && !users.data ? (
        <LoadError query={users} fallback="De gebruikers konden niet worden geladen." />
      ) : !users.data ? (
        <LoadingText />
      ) : (
        <>
          {/* A phone: one card per admin, every field and button on screen. */}
          <ul className="space-y-3 md:hidden" aria-label="Beheerders">
            {users.data.items.map((user) => (
              <li
                key={user.id}
                className="rounded-card border border-gray-200 p-4 text-sm"
                data-testid="gebruiker-kaart"
              >
                <p className="font-semibold text-gray-900">
                  {user.username}
                  {user.username === self && <span className="ml-1 font-normal text-gray-600">(jij)</span>}
                </p>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
                  <dt className="text-gray-600">Status</dt>
                  <dd>{statusBadges(user)}</dd>
                  <dt className="text-gray-600">Tweestapsverificatie</dt>
                  <dd>{user.totpEnabled ? "Aan" : "Uit"}</dd>
                  <dt className="text-gray-600">Laatst ingelogd</dt>
                  <dd className="text-gray-700">{lastLogin(user)}</dd>
                  <dt className="text-gray-600">Nieuwe aanvragen</dt>
                  <dd>
                    <TakesNewLeadsSwitch user={user} />
                  </dd>
                </dl>
                {user.username !== self && <div className="mt-3">{actionsFor(user)}</div>}
              </li>
            ))}
          </ul>
          <div className="hidden overflow-x-auto md:block">
            <table className="min-w-full text-left text-sm">
              <thead className="border-b border-gray-200 text-gray-600">
                <tr>
                  <th className="py-2 pr-4 font-semibold">Gebruikersnaam</th>
                  <th className="py-2 pr-4 font-semibold">Status</th>
                  <th className="py-2 pr-4 font-semibold">Tweestapsverificatie</th>
                  <th className="py-2 pr-4 font-semibold">Laatst ingelogd</th>
                  <th className="py-2 pr-4 font-semibold">Nieuwe aanvragen</th>
                  <th className="py-2 font-semibold">
                    <span className="sr-only">Acties</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {users.data.items.map((user) => (
                  <tr key={user.id} className="border-b border-gray-100" data-testid="gebruiker">
                    <td className="py-2 pr-4 font-medium text-gray-900">
                      {user.username}
                      {user.username === self && <span className="ml-1 text-gray-600">(jij)</span>}
                    </td>
                    <td className="py-2 pr-4">{statusBadges(user)}</td>
                    <td className="py-2 pr-4">{user.totpEnabled ? "Aan" : "Uit"}</td>
                    <td className="py-2 pr-4 text-gray-700">{lastLogin(user)}</td>
                    <td className="py-2 pr-4">
                      <TakesNewLeadsSwitch user={user} />
                    </td>
                    <td className="py-2">{actionsFor(user)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </Panel>
  );
}
