// Island: the cookie banner (opens after hydration on a first visit).
export { CookieBanner as default } from "../components/CookieBanner";
