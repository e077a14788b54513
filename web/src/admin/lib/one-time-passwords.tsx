import {
  createContext,
  useContext,
  useState,
  type Dispatch,
  type ReactNode,
  type SetStateAction,
} from "react";

export interface OneTimePassword {
  username: string;
  password: string;
}

type Shown = [OneTimePassword[], Dispatch<SetStateAction<OneTimePassword[]>>];

const OneTimePasswords = createContext<Shown | null>(null);

/**
 * The one-time passwords of the admins just created, on screen until dismissed (each is shown
 * this once only), also while another tab is open. The dashboard holds them for the signed-in
 * admin (keyed by the admin's id, so another admin starts with none); in memory only, never stored.
 */
export function OneTimePasswordsProvider({ children }: { children: ReactNode }) {
  const shown = useState<OneTimePassword[]>([]);
  return <OneTimePasswords.Provider value={shown}>{children}</OneTimePasswords.Provider>;
}

/** The shown one-time passwords and their setter, from the dashboard's provider. */
export function useOneTimePasswords(): Shown {
  const shown = useContext(OneTimePasswords);
  if (!shown) throw new Error("useOneTimePasswords needs a OneTimePasswordsProvider");
  return shown;
}
