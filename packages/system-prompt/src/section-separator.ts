/** The composer joins the prompt's sections with a horizontal rule between blank lines. */
export const SECTION_SEPARATOR = "\n\n---\n\n";
