import type { Random } from '../credential-families.js';

/**
 * Test and benchmark data: code identifiers as people write them, built from English words in the
 * usual styles (camel, Pascal, snake, SCREAMING_SNAKE), with version suffixes, numbered acronyms,
 * member prefixes, dotted paths and generic type names, and lines of code that use them. Every call
 * draws anew from a seeded generator, so nothing depends on one spelling. The redactor holds no
 * list of these words: a name must be told from a token by its shape.
 */
export const englishWords = (
  'able access account action active adapter address admin after agent alert align allow amount ' +
  'anchor angle answer apply archive area argument array arrow asset async attach attempt audio ' +
  'author auto avatar axis back background badge balance bank banner base batch before begin ' +
  'billing binary bind block blue board body bold book border bottom bound box branch bridge ' +
  'browser bucket buffer build bundle button byte cache calendar call camera cancel canvas ' +
  'capacity caption card cart case catalog category cell center chain change channel chart check ' +
  'child choice circle city class clear click client clock clone close cloud cluster code collect ' +
  'color column command comment commit common company compare compile complete component compute ' +
  'config confirm connect console constant contact container content context control convert ' +
  'cookie copy core corner count country cover create credit crop cursor custom customer cycle ' +
  'daily dark dashboard data date debug decimal decode default delay delete delta depth design ' +
  'detail device dialog digit direct disable discount disk display distance document domain done ' +
  'double down draft drag draw drive driver drop duration dynamic early edge editor effect element ' +
  'email empty enable encode end engine entry error escape event every exact example exchange ' +
  'exit expand expire export extend extra factory fallback feature feed fetch field figure file ' +
  'filter final find first flag flat float flow focus folder font footer force form format forward ' +
  'frame free friend front full function gallery game gate general global goal graph green grid ' +
  'group guard guest handle handler hash header health height help hidden history hold home hook ' +
  'host hover icon image import index info initial inner input insert install instance integer ' +
  'invite invoice issue item job join journal jump keep kernel label language large last launch ' +
  'layer layout lead leader left legacy length level library light limit line link list listen ' +
  'load local locale lock logger login lookup loop lower machine main manager manual margin mark ' +
  'master match matrix maximum measure media member memory menu merge message meta method metric ' +
  'middle minimum mirror mobile modal mode model module monitor month mount mouse move native ' +
  'network next node normal notice number object offset online open option order origin outer ' +
  'output owner package padding page panel parent parse parser partner path pattern pause payment ' +
  'pending period person phone picker pixel place plan player plugin point policy pool popup port ' +
  'position power prefix preview price primary print priority private process product profile ' +
  'program progress project prompt property provider proxy public publish query queue quota radio ' +
  'range rate reader ready record red reduce refresh region register release remote remove render ' +
  'repeat reply report request require reset resize resolve resource response result retry return ' +
  'review right role root rotate round route router row rule runner safe sample save scale schema ' +
  'scope score screen script scroll search section select sender sequence server service session ' +
  'setting shadow shape share sheet shift short show side sign signal simple single size slider ' +
  'slot small snapshot socket sort source space span spinner split stack stage start state static ' +
  'status step storage store stream string style subject submit summary support surface switch ' +
  'symbol sync table tabs target task template tenant text theme thread threshold ticket time ' +
  'timer title toggle tool tooltip top total touch track traffic transfer tree trigger type unit ' +
  'update upload upper usage user valid value vendor version video view visible volume wait ' +
  'warning watch weight width window worker wrapper write year zone'
).split(' ');

/** Acronyms and words with digits that names carry (`Http2Server`, `utf8Decoder`, `sha256Sum`). */
export const numberedParts =
  'Http2 Utf8 Utf16 Base64 Base32 Sha1 Sha256 Sha512 Md5 X509 Oauth2 Ipv4 Ipv6 Int8 Int16 Int32 Int64 Uint8 Uint32 Float32 Float64 S3 Ec2 H264 Mp4 Vec3 Mat4 Rgb8 Argb32 Crc32 Aes128 Aes256 Rsa2048 Ed25519 Win32 K8s I18n L10n Web3 Es2022 Py3 Gl2 Lz4'.split(
    ' ',
  );

/** Acronyms written in capitals inside names (`parseURLPath`, `HTTPClient`). */
const acronyms = 'HTTP URL API JSON XML SQL UI ID DB IO TCP UDP DNS HTML CSS JWT UUID'.split(' ');

const at = <T>(random: Random, list: readonly T[]): T =>
  list[Math.floor(random.next() * list.length)]!;
const capital = (word: string) => word[0]!.toUpperCase() + word.slice(1);
// A camel name starts with its first part in lower case, an acronym whole (`httpClient`, `urlPath`).
const lowerFirst = (name: string) => {
  const head = /^[A-Z]+(?![a-z])|^[A-Z]/.exec(name)?.[0] ?? '';
  return head.toLowerCase() + name.slice(head.length);
};

export const identifierStyles = [
  'camel',
  'pascal',
  'snake',
  'screaming',
  'member',
  'dotted',
] as const;
export type IdentifierStyle = (typeof identifierStyles)[number];

/** The humps of one name: 2–6 English words, now and then a numbered part or an acronym. */
function humps(random: Random): string[] {
  const count = 2 + Math.floor(random.next() * 5);
  const parts: string[] = [];
  for (let index = 0; index < count; index++) {
    const roll = random.next();
    if (roll < 0.12) parts.push(at(random, numberedParts));
    else if (roll < 0.18) parts.push(at(random, acronyms));
    else parts.push(capital(at(random, englishWords)));
  }
  return parts;
}

/** A version or number tail: `V2`, `v3`, `2`, `64`, or none. */
function tail(random: Random): string {
  const roll = random.next();
  if (roll < 0.3) return `V${1 + Math.floor(random.next() * 9)}`;
  if (roll < 0.45) return `v${1 + Math.floor(random.next() * 9)}`;
  if (roll < 0.6) return String(1 + Math.floor(random.next() * 64));
  return '';
}

/** A code identifier of English words in `style`, with digits in about half of them. */
export function codeIdentifier(random: Random, style: IdentifierStyle): string {
  const parts = humps(random);
  const end = tail(random);
  switch (style) {
    case 'camel':
      return lowerFirst(parts.join('')) + end;
    case 'pascal':
      return parts.join('') + end;
    case 'snake':
      return (
        parts.map((part) => part.toLowerCase()).join('_') + (end ? `_${end.toLowerCase()}` : '')
      );
    case 'screaming':
      return (
        parts.map((part) => part.toUpperCase()).join('_') + (end ? `_${end.toUpperCase()}` : '')
      );
    case 'member': {
      const prefix = at(random, ['m_', 'k', '_', 's_', 'g_', 'self.', 'this.', 'this->m_']);
      const name = parts.join('') + end;
      return prefix.endsWith('_') && prefix !== '_'
        ? `${prefix}${lowerFirst(name)}`
        : prefix + name;
    }
    case 'dotted': {
      const segments = 2 + Math.floor(random.next() * 3);
      const out: string[] = [];
      for (let index = 0; index < segments; index++) {
        out.push(lowerFirst(humps(random).join('')) + (index === segments - 1 ? end : ''));
      }
      return out.join('.');
    }
  }
}

/** A generic type of Pascal names (`Map<UserAccountV2, List<Http2StreamHandler>>`). */
export function genericType(random: Random): string {
  const outer = at(random, ['Map', 'List', 'Result', 'Option', 'Promise', 'Record', 'Vec', 'Set']);
  const inner = () => codeIdentifier(random, 'pascal');
  return random.next() < 0.5
    ? `${outer}<${inner()}>`
    : `${outer}<${inner()}, ${at(random, ['List', 'Array', 'Option'])}<${inner()}>>`;
}

export const lineKinds = ['assignment', 'call', 'import', 'jsx', 'log', 'generic'] as const;
export type LineKind = (typeof lineKinds)[number];

/** A line of code of `kind` that uses drawn identifiers; `names` lists those it holds. */
export function codeLine(random: Random, kind: LineKind): { line: string; names: string[] } {
  const id = (style?: IdentifierStyle) =>
    codeIdentifier(random, style ?? at(random, identifierStyles));
  switch (kind) {
    case 'assignment': {
      const a = id();
      const b = id('camel');
      const c = id('pascal');
      return { line: `const ${a} = ${b}(new ${c}());`, names: [a, b, c] };
    }
    case 'call': {
      const a = id('dotted');
      const b = id();
      const c = id('screaming');
      return { line: `    ${a}(${b}, ${c});`, names: [a, b, c] };
    }
    case 'import': {
      const a = id('pascal');
      const b = id('camel');
      const module = id('snake');
      return {
        line: `import { ${a}, ${b} } from './${module}';`,
        names: [a, b, module],
      };
    }
    case 'jsx': {
      const a = id('pascal');
      const b = id('camel');
      const c = id('camel');
      return { line: `<${a} ${b}={${c}} />`, names: [a, b, c] };
    }
    case 'log': {
      const a = id('pascal');
      const b = id('member');
      return {
        line: `2025-03-14T09:26:53Z ERROR ${a}: ${b} failed in ${a}.run`,
        names: [a, b],
      };
    }
    case 'generic': {
      const a = genericType(random);
      const b = id('camel');
      return { line: `private readonly ${b}: ${a};`, names: [b] };
    }
  }
}
