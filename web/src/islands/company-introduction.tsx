// Island: "<name>, gevestigd te <city> ..." in the legal pages' text.
export { CompanyIntroduction as default } from "../pages/legal/LegalPage";
