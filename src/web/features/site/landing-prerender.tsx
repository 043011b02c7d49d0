import { renderToStaticMarkup } from 'react-dom/server';
import LandingPage, { LandingTemplates } from './landing-page';
import { PrerenderContext } from './lazy-section';
import AboutSection from './sections/about-section';
import GetStartedSection from './sections/get-started-section';
import HowItWorksSection from './sections/how-it-works-section';
import SafetySection from './sections/safety-section';

/** Each lazy section's id on the page, the name of the chunk that carries its body, and the body. */
const SECTIONS = [
  { id: 'about', chunk: 'about-section', Body: AboutSection },
  { id: 'how-it-works', chunk: 'how-it-works-section', Body: HowItWorksSection },
  { id: 'why-safe', chunk: 'safety-section', Body: SafetySection },
  { id: 'get-started', chunk: 'get-started-section', Body: GetStartedSection },
];

/**
 * The landing page as HTML, run by scripts/prerender.mjs at build time (ADR 004): the page as React would
 * first draw it (sections still loading), the parts its script adds later as templates, and each section's
 * body, which the build ships as a small chunk fetched when the section comes into view.
 */
export function renderLanding() {
  return {
    page: renderToStaticMarkup(
      <PrerenderContext value>
        <LandingPage />
      </PrerenderContext>,
    ),
    templates: renderToStaticMarkup(<LandingTemplates />),
    sections: SECTIONS.map(({ id, chunk, Body }) => ({ id, chunk, html: renderToStaticMarkup(<Body />) })),
  };
}
