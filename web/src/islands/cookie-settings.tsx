// Island: the "Cookie Instellingen" button of /cookie-beleid.
export { CookieSettingsButton as default } from "../components/CookieSettingsButton";
