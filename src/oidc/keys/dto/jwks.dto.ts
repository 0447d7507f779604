import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** A public signing key (RFC 7517 §4, RFC 7518 §6.2.1 and §6.3.1): never a private member. */
export class JwkDto {
  @ApiProperty({ enum: ['RSA', 'EC'], example: 'RSA', description: 'Key type: `RSA` for RS256, `EC` for ES256.' })
  kty: string;

  @ApiProperty({ example: 'Wn3cq2O3Kf8P3u9oKEVjTqk0Q3Dn4cYp3y3Xy7m0rQk', description: 'Key id (its RFC 7638 thumbprint); the `kid` in the header of the ID tokens it signs.' })
  kid: string;

  @ApiProperty({ enum: ['RS256', 'ES256'], example: 'RS256', description: 'The one algorithm the key signs with.' })
  alg: string;

  @ApiProperty({ enum: ['sig'], example: 'sig', description: 'Signatures only.' })
  use: string;

  @ApiPropertyOptional({ example: '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw', description: 'RSA modulus (RSA keys).' })
  n?: string;

  @ApiPropertyOptional({ example: 'AQAB', description: 'RSA public exponent (RSA keys).' })
  e?: string;

  @ApiPropertyOptional({ enum: ['P-256'], example: 'P-256', description: 'Curve (EC keys).' })
  crv?: string;

  @ApiPropertyOptional({ example: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', description: 'Curve point x coordinate (EC keys).' })
  x?: string;

  @ApiPropertyOptional({ example: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0', description: 'Curve point y coordinate (EC keys).' })
  y?: string;
}

/** RFC 7517 §5: the JWK Set that `GET /oauth/jwks` serves. */
export class JwksDto {
  @ApiProperty({ type: [JwkDto], description: 'The published keys: the active key of each algorithm first, then keys rotated out whose ID tokens may still be valid.' })
  keys: JwkDto[];
}
