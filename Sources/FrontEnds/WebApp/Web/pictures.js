// A catalog word's picture: its drawing as a file where it has one (OpenMoji or a Mulberry
// symbol, the same on every phone, an old tablet and paper), else its emoji. The drawing is the
// picture's content only; whoever places it labels it (role="img" and the word) or hides it.
export function drawing(h, { picture, image }) {
  if (image) return h("img", { class: "drawing", src: `/pictures/${image}`, alt: "", draggable: "false", decoding: "async" });
  return picture ?? "";
}

// Whether a word can be shown by a picture at all (the games play only such words).
export const pictured = (w) => !!(w.image || w.picture);
