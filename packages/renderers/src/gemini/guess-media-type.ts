// The media type of a file from the extension of its name or URL, for fileData parts whose attachment
// does not state one. Covers the types Gemini documents for images, documents, audio and video.
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  heic: "image/heic",
  heif: "image/heif",
  pdf: "application/pdf",
  txt: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  html: "text/html",
  xml: "text/xml",
  json: "application/json",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  flac: "audio/flac",
  aac: "audio/aac",
  mp4: "video/mp4",
  mpeg: "video/mpeg",
  mov: "video/quicktime",
  webm: "video/webm",
};

/** The media type for a file name or URL, or undefined when its extension is unknown. */
export function guessMediaType(nameOrUrl: string | undefined): string | undefined {
  if (nameOrUrl === undefined) return undefined;
  const path = nameOrUrl.split(/[?#]/, 1)[0] ?? "";
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1];
  return extension === undefined ? undefined : MEDIA_TYPES[extension.toLowerCase()];
}
