// A catalog word's picture: its drawing as a file where it has one (OpenMoji or a Mulberry
// symbol, the same on every phone, an old tablet and paper), else its emoji. The drawing is the
// picture's content only; whoever places it labels it (role="img" and the word) or hides it.
export function drawing(h, { picture, image }) {
  if (image) return h("img", { class: "drawing", src: `/pictures/${image}`, alt: "", draggable: "false", decoding: "async" });
  return picture ?? "";
}

// Whether a word can be shown by a picture at all (the games play only such words).
export const pictured = (w) => !!(w.image || w.picture);

// Kinds of words that no one topic holds enough of, played across all topics (their drawings
// show actions and places): game sources named with a leading "@", which no category id has.
// Here, not in games.js, because the first page links them and does not load the games.
export const KINDS = {
  "@actions": { pos: "verb", icon: "🏃", name: "kind.actions", color: "#F4A261" },
  "@where": { pos: "preposition", icon: "📦", name: "kind.where", color: "#8AB17D" },
};
