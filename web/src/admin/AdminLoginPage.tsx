import { useQuery, useQueryClient } from "@tanstack/react-query";
import { LOGIN_FAILED_MESSAGE, NEW_PASSWORD_MIN_LENGTH, type LoginResponse } from "@lease/contracts";
import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { ApiError, fieldErrors } from "../api/client";
import { useNotice } from "../components/notice";
import { ADMIN_KEYS, fetchMe, login, loginWithCode, loginWithNewPassword } from "./api";
import { Button, TextField } from "../components/ui";
import { useForm } from "../lib/use-form";
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
  const { notify, notifyError } = useNotice();
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
    notifyError("Inloggen mislukt", error, LOGIN_FAILED_MESSAGE);
  };
  const form = useForm({
    initial: { username: "", password: "" },
    validate: (values) => ({
      username: values.username.trim() ? undefined : USERNAME_REQUIRED,
      password: values.password ? undefined : PASSWORD_REQUIRED,
    }),
    submit: (values) => login({ username: values.username.trim(), password: values.password }),
    onSuccess: signedInNow,
    // Kept for a sign-in that starts over at the password (an expired next step).
    keepValues: true,
    // A refused sign-in is said by the notice, never at a field.
    serverErrors: () => ({}),
    onFailed: failed,
  });

  const pending = form.pending;
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
      <SignInForm
        titleId="admin-login-titel"
        title="Admin Login"
        onSubmit={form.onSubmit}
        pending={pending}
        submitLabel="Inloggen"
        pendingLabel="Inloggen..."
      >
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
        <TextField
          id="username"
          label="Gebruikersnaam"
          name="username"
          autoComplete="username"
          disabled={pending}
          {...form.text("username")}
        />
        <TextField
          id="password"
          label="Wachtwoord"
          name="password"
          type="password"
          autoComplete="current-password"
          disabled={pending}
          {...form.text("password")}
        />
      </SignInForm>
    </main>
  );
}

/** A sign-in step's card: its heading, its fields, and a full-width submit button held while pending. */
function SignInForm(props: {
  titleId: string;
  title: string;
  onSubmit: (event: FormEvent) => void;
  pending: boolean;
  submitLabel: string;
  pendingLabel: string;
  children: ReactNode;
}) {
  return (
    <form
      onSubmit={props.onSubmit}
      noValidate
      className="w-full max-w-sm space-y-5 rounded-card border border-gray-200 bg-white p-6 shadow-sm sm:p-8"
      aria-labelledby={props.titleId}
    >
      <h1 id={props.titleId} className="text-center text-2xl font-bold text-gray-900">
        {props.title}
      </h1>
      {props.children}
      <Button type="submit" className="w-full py-3" disabled={props.pending}>
        {props.pending ? props.pendingLabel : props.submitLabel}
      </Button>
    </form>
  );
}

interface StepProps {
  ticket: string;
  onAnswer: (answer: LoginResponse) => void;
  onError: (error: unknown) => void;
}

/** Two-factor sign-in: the authenticator's code, or one of the recovery codes. */
function CodeStep({ ticket, onAnswer, onError }: StepProps) {
  const form = useForm({
    initial: { code: "" },
    validate: (values) => ({ code: values.code.replace(/\s/g, "") ? undefined : CODE_REQUIRED }),
    submit: (values) => loginWithCode(ticket, values.code.replace(/\s/g, "")),
    onSuccess: onAnswer,
    serverErrors: () => ({}),
    // A refused code is emptied for the next one.
    onFailed: (failure) => {
      form.cancel();
      onError(failure);
    },
  });
  return (
    <SignInForm
      titleId="code-titel"
      title="Tweestapsverificatie"
      onSubmit={form.onSubmit}
      pending={form.pending}
      submitLabel="Bevestigen"
      pendingLabel="Controleren..."
    >
      <p className="text-sm text-gray-700">
        Vul de code uit je authenticator-app in. Telefoon niet bij de hand? Gebruik een van je herstelcodes.
      </p>
      <TextField
        id="code"
        label="Verificatiecode"
        name="code"
        autoComplete="one-time-code"
        inputMode="text"
        autoFocus
        disabled={form.pending}
        {...form.text("code")}
      />
    </SignInForm>
  );
}

/** After a one-time password: the admin chooses their own before the panel opens. */
function NewPasswordStep({ ticket, onAnswer, onError }: StepProps) {
  const form = useForm({
    initial: { newPassword: "", repeat: "" },
    validate: (values) => ({
      newPassword: values.newPassword.length < NEW_PASSWORD_MIN_LENGTH ? NEW_PASSWORD_TOO_SHORT : undefined,
      repeat: values.repeat !== values.newPassword ? PASSWORDS_DIFFER : undefined,
    }),
    submit: (values) => loginWithNewPassword(ticket, values.newPassword),
    onSuccess: onAnswer,
    serverErrors: (failure) => ({ newPassword: fieldErrors(failure).newPassword }),
    onFailed: (failure, errors) => {
      if (!errors.newPassword) onError(failure);
    },
  });
  return (
    <SignInForm
      titleId="nieuw-titel"
      title="Kies je wachtwoord"
      onSubmit={form.onSubmit}
      pending={form.pending}
      submitLabel="Opslaan en inloggen"
      pendingLabel="Opslaan..."
    >
      <p className="text-sm text-gray-700">
        Je bent ingelogd met een eenmalig wachtwoord. Kies nu een eigen wachtwoord van minimaal{" "}
        {NEW_PASSWORD_MIN_LENGTH} tekens.
      </p>
      <TextField
        id="new-password"
        label="Nieuw wachtwoord"
        type="password"
        autoComplete="new-password"
        autoFocus
        disabled={form.pending}
        {...form.text("newPassword")}
      />
      <TextField
        id="repeat-password"
        label="Herhaal nieuw wachtwoord"
        type="password"
        autoComplete="new-password"
        disabled={form.pending}
        {...form.text("repeat")}
      />
    </SignInForm>
  );
}
