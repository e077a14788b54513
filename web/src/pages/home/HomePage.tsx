import { Island } from "../../site/Island";
import { CreditSection } from "./CreditSection";
import { Hero } from "./Hero";
import { ServicesSection } from "./ServicesSection";
import { TrustSection } from "./TrustSection";

/**
 * The landing page: its sections from top to bottom. The calculator and the two forms run in
 * the browser (islands); the other sections are static HTML, their buttons followed by site-links.ts.
 */
export default function HomePage() {
  return (
    <>
      <Hero />
      <ServicesSection />
      <CreditSection />
      <Island name="calculator" />
      <TrustSection />
      <Island name="lease-request" />
      <Island name="contact" />
    </>
  );
}
