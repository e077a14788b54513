// Island: the home page's quote form.
export { LeaseRequestSection as default } from "../pages/home/LeaseRequestSection";
