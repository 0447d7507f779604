/**
 * Which rule an application's registration broke (src/clients/client-rules.ts decides), so that a page
 * can say it in the reader's language: shared vocabulary of the clients module and the portal's words.
 */
export type ClientRule =
  | 'name_length'
  | 'name_characters'
  | 'name_lookalike'
  | 'name_mixed_scripts'
  | 'redirect_uri_missing'
  | 'redirect_uri_too_long'
  | 'redirect_uri_characters'
  | 'redirect_uri_forbidden_character'
  | 'redirect_uri_not_absolute'
  | 'redirect_uri_scheme'
  | 'redirect_uri_slashes'
  | 'redirect_uri_fragment'
  | 'redirect_uri_credentials'
  | 'redirect_uri_host'
  | 'redirect_uri_http'
  | 'redirect_uri_not_canonical'
  | 'scope_missing'
  | 'scope_unknown'
  | 'client_page_uri'
  | 'client_id_taken'
  | 'public_client';
