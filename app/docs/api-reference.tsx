"use client";
// The dispatch API reference rendered from its OpenAPI document by Scalar
// (@scalar/api-reference-react), a maintained renderer chosen over Redoc and
// Swagger UI because it shows every reply shape and example per operation and
// has try-it-out with the integrator's own key in its free version (Redoc's is
// paid; Swagger UI's React build has no request examples per language), and
// its React wrapper needs no peer packages beyond React.
// Bundled with the page (no CDN is reachable, and the content security policy
// allows scripts only from 'self'); nothing is fetched from outside: no
// default fonts, no telemetry, no "open in client" button, no proxy (try-it
// calls this instance directly, which connect-src 'self' allows).
import { ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";

export function ApiReference({ document }: { document: Record<string, unknown> }) {
  return (
    <ApiReferenceReact
      configuration={{
        content: document,
        layout: "classic",
        withDefaultFonts: false,
        telemetry: false,
        hideClientButton: true,
        showDeveloperTools: "never",
        hideDarkModeToggle: true,
        // Its "ask AI" agent is on by default when the page is served from a
        // local address and reaches proxy.scalar.com (refused by the CSP).
        agent: { disabled: true },
        authentication: { preferredSecurityScheme: "apiKey" },
      }}
    />
  );
}
