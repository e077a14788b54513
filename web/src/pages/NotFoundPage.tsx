import { Link } from "../lib/link";
import { buttonClass } from "../components/ui";

export default function NotFoundPage() {
  return (
    <section className="px-4 py-24 text-center sm:px-6">
      <h1 className="text-3xl font-bold text-ink">404 Page Not Found</h1>
      <p className="mx-auto mt-4 max-w-xl text-muted">
        De pagina die u zoekt bestaat niet of is verplaatst. Ga terug naar de homepage of bekijk een van onze
        leasevormen.
      </p>
      <div className="mt-8 flex flex-col justify-center gap-4 sm:flex-row">
        <Link to="/" className={buttonClass("primary")}>
          Naar de homepage
        </Link>
        <Link to="/zakelijke-lease" className={buttonClass("outline")}>
          Zakelijke lease
        </Link>
      </div>
    </section>
  );
}
