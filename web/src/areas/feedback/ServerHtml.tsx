/**
 * HTML the server rendered from the shared rich-text schema (milestone
 * articles, changelog entries): its serializer emits only the schema's nodes
 * and marks with text escaped, so it is shown as given.
 */
export const ServerHtml = ({ html }: { readonly html: string }) => <div className="rich-text" dangerouslySetInnerHTML={{ __html: html }} />
