// Island: the company's address block of the legal pages.
export { CompanyAddress as default } from "../pages/legal/LegalPage";
