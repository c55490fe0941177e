/**
 * Markdown to Preact elements, for the documents the extension shows (PRIVACY.md on the options page). marked's lexer
 * reads the Markdown; this turns its tokens into elements, so no HTML string ever reaches the DOM. Only the blocks
 * and inline forms those documents use are rendered as such; anything else shows as its source text.
 */
import { Lexer, type Token, type Tokens } from 'marked';
import type { ComponentChildren, JSX } from 'preact';

/** Renders `source`; its headings come out `shift` levels lower (a page's own h1 stays the only one). */
export function Markdown({ source, shift = 1 }: { source: string; shift?: number }): JSX.Element {
  return <>{blocks(Lexer.lex(source), shift)}</>;
}

function blocks(tokens: Token[], shift: number): ComponentChildren[] {
  return tokens.map((t, i) => {
    switch (t.type) {
      case 'heading': {
        const Tag = `h${Math.min(6, (t as Tokens.Heading).depth + shift)}` as 'h2';
        return <Tag key={i}>{inline((t as Tokens.Heading).tokens)}</Tag>;
      }
      case 'paragraph':
        return <p key={i}>{inline((t as Tokens.Paragraph).tokens)}</p>;
      case 'list': {
        const list = t as Tokens.List;
        const items = list.items.map((item, j) => <li key={j}>{listItem(item, shift)}</li>);
        return list.ordered ? <ol key={i}>{items}</ol> : <ul key={i}>{items}</ul>;
      }
      case 'space':
        return null;
      default:
        return <p key={i}>{t.raw}</p>;
    }
  });
}

/** A tight list item is text; a loose one holds paragraphs. */
function listItem(item: Tokens.ListItem, shift: number): ComponentChildren {
  return item.tokens.map((t, i) =>
    t.type === 'text' ? <span key={i}>{inline((t as Tokens.Text).tokens ?? [t])}</span> : blocks([t], shift),
  );
}

function inline(tokens: Token[]): ComponentChildren[] {
  return tokens.map((t, i) => {
    switch (t.type) {
      case 'text':
        return 'tokens' in t && t.tokens ? inline(t.tokens) : (t as Tokens.Text).text;
      case 'escape':
        return (t as Tokens.Escape).text;
      case 'strong':
        return <strong key={i}>{inline((t as Tokens.Strong).tokens)}</strong>;
      case 'em':
        return <em key={i}>{inline((t as Tokens.Em).tokens)}</em>;
      case 'codespan':
        return <code key={i}>{(t as Tokens.Codespan).text}</code>;
      case 'link': {
        const link = t as Tokens.Link;
        // Web addresses open in a new tab; anything else (a file of the repository, javascript:) is shown as text.
        return /^https:\/\//i.test(link.href) ? (
          <a key={i} href={link.href} target="_blank" rel="noopener noreferrer">
            {inline(link.tokens)}
          </a>
        ) : (
          <span key={i}>{inline(link.tokens)}</span>
        );
      }
      case 'br':
        return <br key={i} />;
      default:
        return t.raw;
    }
  });
}
