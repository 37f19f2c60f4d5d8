import { Link } from 'react-router-dom';

/** The page-not-found message, also used for searches that don't exist or aren't yours. */
export function NotFoundMessage({
  title = 'Page not found',
  text = "We couldn't find the page you were looking for.",
  linkTo = '/',
  linkText = 'Go to the home page',
}: {
  title?: string;
  text?: string;
  linkTo?: string;
  linkText?: string;
}) {
  return (
    <div className="text-center py-5">
      <h1 className="h3">{title}</h1>
      <p className="text-body-secondary">{text}</p>
      <Link to={linkTo} className="btn btn-primary">
        {linkText}
      </Link>
    </div>
  );
}
