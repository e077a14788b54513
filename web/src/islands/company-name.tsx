// Island: the company name in a legal page's text.
export { CompanyName as default } from "../pages/legal/LegalPage";
