import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ADMIN_USERNAME_MESSAGE, ADMIN_USERNAME_PATTERN, type AdminUser } from "@lease/contracts";
import { userErrorMessage } from "../../api/client";
import { useNotice } from "../../components/notice";
import { Button, LoadError, LoadingText, Panel, TextField } from "../../components/ui";
import {
  ADMIN_KEYS,
  createUser,
  fetchMe,
  fetchUsers,
  removeUser,
  resetUserTotp,
  setUserDisabled,
} from "../api";
import { useForm } from "../../lib/use-form";
import { useOneTimePasswords } from "../lib/one-time-passwords";
import { useHandOnText } from "./LeadRouting";
import { TeamMembers } from "./TeamMembers";

function checkUsername({ username }: { username: string }) {
  const name = username.trim();
  return {
    username: !name
      ? "Gebruikersnaam is verplicht"
      : ADMIN_USERNAME_PATTERN.test(name)
        ? undefined
        : ADMIN_USERNAME_MESSAGE,
  };
}

/** "Beheerders": create an admin (its one-time password shown once), and the team with its buttons. */
export function TeamPanel() {
  const queryClient = useQueryClient();
  const { notify } = useNotice();
  const me = useQuery({ queryKey: ADMIN_KEYS.me, queryFn: fetchMe, retry: false });
  const users = useQuery({ queryKey: ADMIN_KEYS.users, queryFn: fetchUsers, staleTime: 0 });
  // Each new admin's one-time password stays until dismissed, also while another admin is
  // created, an attempt fails or another tab is open meanwhile (the dashboard keeps them).
  const [created, setCreated] = useOneTimePasswords();
  const reload = () => queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.users });
  const failed = (title: string) => (error: unknown) =>
    notify({ title, description: userErrorMessage(error, "Probeer het opnieuw."), variant: "destructive" });

  const create = useForm({
    initial: { username: "" },
    validate: checkUsername,
    submit: (values) => createUser(values.username.trim()),
    onSuccess: (answer) => {
      setCreated((shown) => [...shown, { username: answer.user.username, password: answer.oneTimePassword }]);
      void reload();
    },
    onFailed: (error, fields) => {
      if (!fields.username) failed("Aanmaken mislukt")(error);
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
  return (
    <Panel title="Beheerders">
      <form onSubmit={create.onSubmit} noValidate className="mb-6 flex flex-wrap items-end gap-3">
        <div className="min-w-60 flex-1">
          <TextField
            id="nieuwe-gebruiker"
            label="Nieuwe beheerder (gebruikersnaam)"
            autoComplete="off"
            disabled={create.pending}
            {...create.text("username")}
          />
        </div>
        <Button type="submit" disabled={create.pending}>
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
        <TeamMembers users={users.data.items} self={self} actionsFor={actionsFor} />
      )}
    </Panel>
  );
}
