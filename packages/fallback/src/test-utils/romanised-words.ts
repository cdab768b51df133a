import fc from 'fast-check';

/**
 * Words as several languages build them, written in Latin letters: syllables of each language's
 * romanisation (Hepburn for Japanese, pinyin, the Revised Romanisation of Korean) or spelling,
 * drawn and joined at test time. Made-up words, but the letter pairs a word of that language
 * holds; none of them was used to derive or tune the letter model (o200k's words are).
 */
const syllables = (text: string) => text.split(' ');

const japanese = syllables(
  'a i u e o ka ki ku ke ko sa shi su se so ta chi tsu te to na ni nu ne no ha hi fu he ho ma mi mu me mo ya yu yo ra ri ru re ro wa n ga gi gu ge go za ji zu ze zo da de do ba bi bu be bo pa pi pu pe po kya kyu kyo sha shu sho cha chu cho nya nyu ryo ryu gyo ja ju jo',
);
const pinyinInitials = syllables('b p m f d t n l g k h j q x zh ch sh r z c s y w');
const pinyinFinals = syllables(
  'a o e ai ei ao ou an en ang eng ong i ia ie iao iu ian in iang ing iong u ua uo uai ui uan un uang',
);
const koreanInitials = syllables('g k kk n d t tt r m b p pp s ss j jj ch h');
const koreanVowels = syllables('a eo o u eu i ae e ya yeo yo yu yae ye wa wae oe wo we wi ui');
const koreanFinals = ['', '', '', 'k', 'n', 'l', 'm', 'ng', 'p', 't'];
const swahili = syllables(
  'a e i o u ba be bi bo bu ka ki ku ko la li lu ma me mi mo mu na ne ni nu nga ngi pa pi ra ri sa si ta ti tu wa we wi ya za zi cha chi sha shi mba mbo nda ndi nde nje',
);
const spanish = syllables(
  'a e o la le lo ma me mi mo na ne no pa pe po ra re ri ro ta te ti to sa se si so ca co cu da de di do ga go cia cion pre tra bre gra es en el al con des par por ver',
);
const german = syllables(
  'ge be ver zer ent an auf aus ein mit vor nach schaft ung heit keit lich isch bar los sam er en el stein burg berg haus land stadt werk zeit recht wort buch licht kraft schrift',
);
const finnish = syllables(
  'ka ki ko ku la li lo lu ma mi mo mu na ni no nu pa pi po pu ra ri ro ru sa si so su ta ti to tu va vi yy aa ee ii oo uu ai ei oi ui ja jo ha he hi ho nen lla llä ssa',
).map((syllable) => syllable.replace('ä', 'a'));

const joined = (parts: fc.Arbitrary<string>, minimum: number, maximum: number) =>
  fc
    .noBias(fc.array(parts, { minLength: minimum, maxLength: maximum }))
    .map((drawnParts) => drawnParts.join(''));

/** Generators of words by language, each word of 5-9 letters. */
export const romanisedWords: Record<string, fc.Arbitrary<string>> = {
  japanese: joined(fc.constantFrom(...japanese), 2, 4),
  pinyin: joined(
    fc
      .tuple(fc.constantFrom(...pinyinInitials), fc.constantFrom(...pinyinFinals))
      .map(([initial, final]) => initial + final),
    2,
    2,
  ),
  korean: joined(
    fc
      .tuple(
        fc.constantFrom(...koreanInitials),
        fc.constantFrom(...koreanVowels),
        fc.constantFrom(...koreanFinals),
      )
      .map((parts) => parts.join('')),
    2,
    2,
  ),
  swahili: joined(fc.constantFrom(...swahili), 2, 3),
  spanish: joined(fc.constantFrom(...spanish), 2, 3),
  german: joined(fc.constantFrom(...german), 2, 2),
  finnish: joined(fc.constantFrom(...finnish), 2, 4),
};

for (const [language, words] of Object.entries(romanisedWords)) {
  romanisedWords[language] = words.filter((word) => word.length >= 5 && word.length <= 9);
}

/**
 * Words of code that are not in `englishWords` (code-identifiers.ts): abbreviations, tool names and
 * glued words programs are full of.
 */
export const codeWords = syllables(
  'nginx kubectl tsconfig webpack kwargs stdin stdout stderr errno chmod chown mkdir rmdir utils mutex regex xargs fstab cmake qemu vsync ldflags cflags pthread malloc calloc realloc memcpy strlen sizeof typeof readonly async await lambda tuple deque struct enum boolean uint int64 float32 varchar sqlite postgres mysql redis kafka docker podman systemd journald crontab sudo passwd dotenv eslint prettier vitest jest mocha pytest numpy pandas scipy torch keras tensorflow django flask fastapi rails laravel symfony spring hibernate gradle maven cargo rustc clippy rustfmt gofmt golang nodejs deno bunx vite rollup esbuild babel polyfill shim middleware handler config tmpdir localhost hostname dirname basename filepath pathname querystring useragent cookie session token bearer oauth openid saml jwks webhook callback pubsub grpc protobuf thrift avro parquet',
).filter((word) => word.length >= 5 && /^[a-z]+$/.test(word));
