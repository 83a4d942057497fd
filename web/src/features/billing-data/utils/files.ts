/** File endings the upload accepts (the server reads CSV, gzipped CSV, Parquet and NDJSON). */
export const ACCEPTED_EXTENSIONS = ['.csv', '.csv.gz', '.gz', '.parquet', '.json', '.ndjson'] as const;

/** The server's default upload limit (2 GiB per request); the configured one is in the public config. */
export const DEFAULT_MAX_UPLOAD_BYTES = 2 * 1024 ** 3;

export function isAcceptedFile(name: string): boolean {
  const lower = name.toLowerCase();
  return ACCEPTED_EXTENSIONS.some((ending) => lower.endsWith(ending));
}

/** Archive and compression endings other than gzip: the server does not open them either. */
const ARCHIVE_EXTENSIONS = ['.zip', '.7z', '.rar', '.tar', '.tgz', '.bz2', '.xz', '.zst'] as const;

export function isArchive(name: string): boolean {
  const lower = name.toLowerCase();
  return ARCHIVE_EXTENSIONS.some((ending) => lower.endsWith(ending));
}

/** Two picks of the same file count once. */
export function fileKey(file: File): string {
  return `${file.name}\u0000${file.size}\u0000${file.lastModified}`;
}

/**
 * Adds newly picked files to the chosen ones: unsupported endings are refused (named in
 * `refused`), a file picked twice is kept once.
 */
export function addFiles(chosen: File[], picked: File[]): { files: File[]; refused: string[] } {
  const keys = new Set(chosen.map(fileKey));
  const files = [...chosen];
  const refused: string[] = [];
  for (const file of picked) {
    if (!isAcceptedFile(file.name)) {
      refused.push(file.name);
    } else if (!keys.has(fileKey(file))) {
      keys.add(fileKey(file));
      files.push(file);
    }
  }
  return { files, refused };
}

export function totalBytes(files: File[]): number {
  return files.reduce((sum, file) => sum + file.size, 0);
}
