// Island: the header (menu, section jumps, company name).
export { Header as default } from "../components/Header";
