// Island: the footer (company details from the settings).
export { Footer as default } from "../components/Footer";
