import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { LOGIN_FAILED_MESSAGE, NEW_PASSWORD_MIN_LENGTH, type LoginResponse } from "@lease/contracts";
import { useEffect, useState, type FormEvent } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { ApiError, fieldErrors, userErrorMessage } from "../api/client";
import { useNotice } from "../components/notice";
import { ADMIN_KEYS, fetchMe, login, loginWithCode, loginWithNewPassword } from "./api";
import { Button, Field, inputClass } from "../components/ui";
import { returnPath, sessionEndedBy, sessionExpired, type SessionEnd } from "./lib/session";

export const USERNAME_REQUIRED = "Gebruikersnaam is verplicht";

/** What the sign-in page says when another admin ended this admin's session, and why. */
const SESSION_END_TEXT: Record<SessionEnd, { title: string; text: string }> = {
  disabled: {
    title: "Je account is uitgeschakeld",
    text: "Een andere beheerder heeft je account uitgeschakeld. Vraag een beheerder om het weer in te schakelen.",
  },
  removed: { title: "Je account is verwijderd", text: "Een andere beheerder heeft je account verwijderd." },
  totp_reset: {
    title: "Je tweestapsverificatie is gereset",
    text: "Een andere beheerder heeft je tweestapsverificatie (2FA) uitgezet. Log opnieuw in met je wachtwoord en stel hem daarna opnieuw in onder Mijn account.",
  },
};
export const PASSWORD_REQUIRED = "Wachtwoord is verplicht";
export const CODE_REQUIRED = "Vul de code in";
export const PASSWORDS_DIFFER = "De wachtwoorden zijn niet gelijk";
export const NEW_PASSWORD_TOO_SHORT = `Het wachtwoord moet minimaal ${NEW_PASSWORD_MIN_LENGTH} tekens hebben`;

/** The step after a right password: an authenticator code, or an own password instead of a one-time one. */
type NextStep = Extract<LoginResponse, { next: string }>;

export default function AdminLoginPage() {
  const navigate = useNavigate();
  const { state } = useLocation();
  const queryClient = useQueryClient();
  const { notify } = useNotice();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<{ username?: string; password?: string }>({});
  const target = returnPath(state);

  // Signed in already (or just now): straight on to the dashboard, at the tab the admin came from.
  const me = useQuery({ queryKey: ADMIN_KEYS.me, queryFn: fetchMe, retry: false, staleTime: 0 });
  const signedIn = me.isSuccess;
  useEffect(() => {
    if (signedIn) navigate(target, { replace: true });
  }, [signedIn, target, navigate]);

  const [step, setStep] = useState<NextStep | null>(null);
  const signedInNow = (answer: LoginResponse) => {
    if ("next" in answer) {
      setStep(answer);
      return;
    }
    queryClient.setQueryData(ADMIN_KEYS.me, answer);
    notify({ title: "Succesvol ingelogd", description: "Je bent nu ingelogd als admin." });
  };
  const failed = (error: unknown) => {
    // An expired or used-up sign-in starts over at the password.
    if (error instanceof ApiError && error.status === 401 && error.code === "login_expired") setStep(null);
    notify({
      title: "Inloggen mislukt",
      description: userErrorMessage(error, LOGIN_FAILED_MESSAGE),
      variant: "destructive",
    });
  };
  const mutation = useMutation({ mutationFn: login, onSuccess: signedInNow, onError: failed });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = {
      username: username.trim() ? undefined : USERNAME_REQUIRED,
      password: password ? undefined : PASSWORD_REQUIRED,
    };
    setErrors(next);
    if (next.username || next.password) return;
    mutation.mutate({ username: username.trim(), password });
  };

  const pending = mutation.isPending;
  // Until the session check answers, and when it finds one, the form stays away: a signed-in admin
  // (back on this page, or opening it) goes on to the panel without seeing it.
  if (me.isPending || signedIn) {
    return (
      <main className="flex min-h-screen items-center justify-center bg-gray-50" role="status">
        <p className="text-lg text-gray-700">Laden...</p>
      </main>
    );
  }
  if (step) {
    return (
      <main className="flex min-h-screen items-center justify-center bg-gray-50 px-4 py-12">
        {step.next === "totp" ? (
          <CodeStep ticket={step.ticket} onAnswer={signedInNow} onError={failed} />
        ) : (
          <NewPasswordStep ticket={step.ticket} onAnswer={signedInNow} onError={failed} />
        )}
      </main>
    );
  }
  return (
    <main className="flex min-h-screen items-center justify-center bg-gray-50 px-4 py-12">
      <form
        onSubmit={submit}
        noValidate
        className="w-full max-w-sm space-y-5 rounded-card border border-gray-200 bg-white p-6 shadow-sm sm:p-8"
        aria-labelledby="admin-login-titel"
      >
        <h1 id="admin-login-titel" className="text-center text-2xl font-bold text-gray-900">
          Admin Login
        </h1>
        {sessionEndedBy(state) && (
          <div role="alert" className="rounded-card border border-red-300 bg-red-50 p-3 text-sm text-red-900">
            <p className="font-semibold">{SESSION_END_TEXT[sessionEndedBy(state)!].title}</p>
            <p className="mt-1">{SESSION_END_TEXT[sessionEndedBy(state)!].text}</p>
          </div>
        )}
        {sessionExpired(state) && !sessionEndedBy(state) && (
          <div
            role="alert"
            className="rounded-card border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-900"
          >
            <p className="font-semibold">Sessie verlopen</p>
            <p className="mt-1">Log opnieuw in om verder te gaan waar je was.</p>
          </div>
        )}
        <Field look="admin" id="username" label="Gebruikersnaam" error={errors.username}>
          <input
            id="username"
            name="username"
            autoComplete="username"
            className={inputClass("admin")}
            value={username}
            disabled={pending}
            onChange={(event) => setUsername(event.target.value)}
          />
        </Field>
        <Field look="admin" id="password" label="Wachtwoord" error={errors.password}>
          <input
            id="password"
            name="password"
            type="password"
            autoComplete="current-password"
            className={inputClass("admin")}
            value={password}
            disabled={pending}
            onChange={(event) => setPassword(event.target.value)}
          />
        </Field>
        <Button type="submit" className="w-full py-3" disabled={pending}>
          {pending ? "Inloggen..." : "Inloggen"}
        </Button>
      </form>
    </main>
  );
}

const STEP_FORM =
  "w-full max-w-sm space-y-5 rounded-card border border-gray-200 bg-white p-6 shadow-sm sm:p-8";

interface StepProps {
  ticket: string;
  onAnswer: (answer: LoginResponse) => void;
  onError: (error: unknown) => void;
}

/** Two-factor sign-in: the authenticator's code, or one of the recovery codes. */
function CodeStep({ ticket, onAnswer, onError }: StepProps) {
  const [code, setCode] = useState("");
  const [error, setError] = useState<string>();
  const mutation = useMutation({
    mutationFn: (value: string) => loginWithCode(ticket, value),
    onSuccess: onAnswer,
    onError: (failure) => {
      setCode("");
      onError(failure);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = code.replace(/\s/g, "");
    setError(value ? undefined : CODE_REQUIRED);
    if (value) mutation.mutate(value);
  };
  return (
    <form onSubmit={submit} noValidate className={STEP_FORM} aria-labelledby="code-titel">
      <h1 id="code-titel" className="text-center text-2xl font-bold text-gray-900">
        Tweestapsverificatie
      </h1>
      <p className="text-sm text-gray-700">
        Vul de code uit je authenticator-app in. Telefoon niet bij de hand? Gebruik een van je herstelcodes.
      </p>
      <Field look="admin" id="code" label="Verificatiecode" error={error}>
        <input
          id="code"
          name="code"
          autoComplete="one-time-code"
          inputMode="text"
          autoFocus
          className={inputClass("admin")}
          value={code}
          disabled={mutation.isPending}
          onChange={(event) => setCode(event.target.value)}
        />
      </Field>
      <Button type="submit" className="w-full py-3" disabled={mutation.isPending}>
        {mutation.isPending ? "Controleren..." : "Bevestigen"}
      </Button>
    </form>
  );
}

/** After a one-time password: the admin chooses their own before the panel opens. */
function NewPasswordStep({ ticket, onAnswer, onError }: StepProps) {
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [errors, setErrors] = useState<{ newPassword?: string; repeat?: string }>({});
  const mutation = useMutation({
    mutationFn: () => loginWithNewPassword(ticket, password),
    onSuccess: onAnswer,
    onError: (failure) => {
      const fields = fieldErrors(failure);
      if (fields.newPassword) setErrors({ newPassword: fields.newPassword });
      else onError(failure);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = {
      newPassword: password.length < NEW_PASSWORD_MIN_LENGTH ? NEW_PASSWORD_TOO_SHORT : undefined,
      repeat: repeat !== password ? PASSWORDS_DIFFER : undefined,
    };
    setErrors(next);
    if (!next.newPassword && !next.repeat) mutation.mutate();
  };
  return (
    <form onSubmit={submit} noValidate className={STEP_FORM} aria-labelledby="nieuw-titel">
      <h1 id="nieuw-titel" className="text-center text-2xl font-bold text-gray-900">
        Kies je wachtwoord
      </h1>
      <p className="text-sm text-gray-700">
        Je bent ingelogd met een eenmalig wachtwoord. Kies nu een eigen wachtwoord van minimaal{" "}
        {NEW_PASSWORD_MIN_LENGTH} tekens.
      </p>
      <Field look="admin" id="new-password" label="Nieuw wachtwoord" error={errors.newPassword}>
        <input
          id="new-password"
          type="password"
          autoComplete="new-password"
          autoFocus
          className={inputClass("admin")}
          value={password}
          disabled={mutation.isPending}
          onChange={(event) => setPassword(event.target.value)}
        />
      </Field>
      <Field look="admin" id="repeat-password" label="Herhaal nieuw wachtwoord" error={errors.repeat}>
        <input
          id="repeat-password"
          type="password"
          autoComplete="new-password"
          className={inputClass("admin")}
          value={repeat}
          disabled={mutation.isPending}
          onChange={(event) => setRepeat(event.target.value)}
        />
      </Field>
      <Button type="submit" className="w-full py-3" disabled={mutation.isPending}>
        {mutation.isPending ? "Opslaan..." : "Opslaan en inloggen"}
      </Button>
    </form>
  );
}
