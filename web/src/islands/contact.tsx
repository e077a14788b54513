// Island: the home page's contact section (company details and the contact form).
export { ContactSection as default } from "../pages/home/ContactSection";
