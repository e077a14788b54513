import { Suspense, type ReactNode } from "react";
import { CalculatorSection } from "./CalculatorSection";
import { ContactSection } from "./ContactSection";
import { CreditSection } from "./CreditSection";
import { Hero } from "./Hero";
import { LeaseRequestSection } from "./LeaseRequestSection";
import { ServicesSection } from "./ServicesSection";
import { TrustSection } from "./TrustSection";

/**
 * Each section below the hero is a hydration boundary of its own: React hydrates the pre-rendered
 * page boundary by boundary and can yield to the browser in between, instead of one long task
 * that keeps a phone from responding while the whole page hydrates.
 */
const Boundary = ({ children }: { children: ReactNode }) => <Suspense fallback={null}>{children}</Suspense>;

/** The landing page: its sections in the order of SPEC §2. */
export default function HomePage() {
  return (
    <>
      <Hero />
      <Boundary>
        <ServicesSection />
      </Boundary>
      <Boundary>
        <CreditSection />
      </Boundary>
      <Boundary>
        <CalculatorSection />
      </Boundary>
      <Boundary>
        <TrustSection />
      </Boundary>
      <Boundary>
        <LeaseRequestSection />
      </Boundary>
      <Boundary>
        <ContactSection />
      </Boundary>
    </>
  );
}
