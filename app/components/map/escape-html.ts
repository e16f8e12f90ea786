// Leaflet's tooltips and popups take HTML: every name shown in one (regions,
// streets, places, orders: text operators and integrators typed) is escaped.
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
