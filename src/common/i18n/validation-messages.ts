import { Language } from './language';

type Render = (args: unknown[]) => string;

const list = (args: unknown[]) => (Array.isArray(args[0]) ? (args[0] as unknown[]).join(', ') : String(args[0]));

/** Field-level messages for VALIDATION_ERROR details, keyed by class-validator constraint name. */
const MESSAGES: Record<Language, Record<string, Render>> = {
  tr: {
    isInt: () => 'Tam sayı olmalı.',
    isNumber: () => 'Sayı olmalı.',
    min: ([n]) => `En az ${n} olmalı.`,
    max: ([n]) => `En fazla ${n} olmalı.`,
    isIn: (args) => `Şu değerlerden biri olmalı: ${list(args)}.`,
    isEnum: () => 'İzin verilen değerlerden biri olmalı.',
    isString: () => 'Metin olmalı.',
    isNotEmpty: () => 'Boş olamaz.',
    isDefined: () => 'Zorunlu alan.',
    minLength: ([n]) => `En az ${n} karakter olmalı.`,
    maxLength: ([n]) => `En fazla ${n} karakter olmalı.`,
    isEmail: () => 'Geçerli bir e-posta adresi olmalı.',
    isUrl: () => 'Geçerli bir adres (URL) olmalı.',
    whitelistValidation: () => 'Bilinmeyen alan.',
    singleValue: () => 'Bu alan yalnızca bir kez gönderilebilir.',
    noControlCharacters: () => 'Kontrol karakteri içeremez.',
  },
  en: {
    isInt: () => 'Must be a whole number.',
    isNumber: () => 'Must be a number.',
    min: ([n]) => `Must be at least ${n}.`,
    max: ([n]) => `Must be at most ${n}.`,
    isIn: (args) => `Must be one of: ${list(args)}.`,
    isEnum: () => 'Must be one of the allowed values.',
    isString: () => 'Must be a string.',
    isNotEmpty: () => 'Must not be empty.',
    isDefined: () => 'This field is required.',
    minLength: ([n]) => `Must be at least ${n} characters long.`,
    maxLength: ([n]) => `Must be at most ${n} characters long.`,
    isEmail: () => 'Must be a valid email address.',
    isUrl: () => 'Must be a valid URL.',
    whitelistValidation: () => 'Unknown field.',
    singleValue: () => 'This field may be sent only once.',
    noControlCharacters: () => 'Must not contain control characters.',
  },
};

const FALLBACK: Record<Language, string> = { tr: 'Geçersiz değer.', en: 'Invalid value.' };

export function validationMessage(language: Language, constraint: string, args: unknown[] = []): string {
  const render = MESSAGES[language][constraint];
  return render ? render(args) : FALLBACK[language];
}

export const KNOWN_CONSTRAINTS = Object.keys(MESSAGES.en);
