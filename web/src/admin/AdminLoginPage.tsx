import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { LOGIN_FAILED_MESSAGE } from "@lease/contracts";
import { useEffect, useState, type FormEvent } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { userErrorMessage } from "../api/client";
import { useNotice } from "../components/notice";
import { ADMIN_KEYS, fetchMe, login } from "./api";
import { Button, SettingsField, TEXT_INPUT } from "./components/ui";
import { returnPath, sessionExpired } from "./lib/session";

export const USERNAME_REQUIRED = "Gebruikersnaam is verplicht";
export const PASSWORD_REQUIRED = "Wachtwoord is verplicht";

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

  const mutation = useMutation({
    mutationFn: login,
    onSuccess: (session) => {
      queryClient.setQueryData(ADMIN_KEYS.me, session);
      notify({ title: "Succesvol ingelogd", description: "Je bent nu ingelogd als admin." });
    },
    onError: (error) => {
      notify({
        title: "Inloggen mislukt",
        description: userErrorMessage(error, LOGIN_FAILED_MESSAGE),
        variant: "destructive",
      });
    },
  });

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
        {sessionExpired(state) && (
          <div
            role="alert"
            className="rounded-card border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-900"
          >
            <p className="font-semibold">Sessie verlopen</p>
            <p className="mt-1">Log opnieuw in om verder te gaan waar je was.</p>
          </div>
        )}
        <SettingsField id="username" label="Gebruikersnaam" error={errors.username}>
          <input
            id="username"
            name="username"
            autoComplete="username"
            className={TEXT_INPUT}
            value={username}
            disabled={pending}
            aria-invalid={Boolean(errors.username)}
            aria-describedby={errors.username ? "username-fout" : undefined}
            onChange={(event) => setUsername(event.target.value)}
          />
        </SettingsField>
        <SettingsField id="password" label="Wachtwoord" error={errors.password}>
          <input
            id="password"
            name="password"
            type="password"
            autoComplete="current-password"
            className={TEXT_INPUT}
            value={password}
            disabled={pending}
            aria-invalid={Boolean(errors.password)}
            aria-describedby={errors.password ? "password-fout" : undefined}
            onChange={(event) => setPassword(event.target.value)}
          />
        </SettingsField>
        <Button type="submit" className="w-full py-3" disabled={pending}>
          {pending ? "Inloggen..." : "Inloggen"}
        </Button>
      </form>
    </main>
  );
}
