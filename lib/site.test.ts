import assert from 'node:assert/strict'
import { test } from 'node:test'
import { languageTag, timeZoneName } from './site'

test('a language is a BCP 47 tag, canonical; WordPress locales are taken; anything else is none', () => {
  assert.equal(languageTag('en'), 'en')
  assert.equal(languageTag(' pt-br '), 'pt-BR')
  assert.equal(languageTag('de_DE'), 'de-DE')
  assert.equal(languageTag('zh-hant-tw'), 'zh-Hant-TW')
  assert.equal(languageTag('es-419'), 'es-419')
  assert.equal(languageTag('de_DE_formal'), 'de-DE-formal')
  for (const bad of ['', 'english', 'en US', 'e', 'en-', '"><script>', 'x-private']) assert.equal(languageTag(bad), null, bad)
})

test('a time zone is an IANA name, as the runtime spells it; offsets and unknown names are none', () => {
  assert.equal(timeZoneName('UTC'), 'UTC')
  assert.equal(timeZoneName('utc'), 'UTC')
  assert.equal(timeZoneName('america/new_york'), 'America/New_York')
  assert.equal(timeZoneName(' Asia/Kolkata '), 'Asia/Kolkata', 'as given, whatever name the runtime prefers')
  for (const bad of ['', '+01:00', 'GMT+1 ', 'Mars/Olympus_Mons', 'Europe/']) assert.equal(timeZoneName(bad), null, bad)
})
