package com.northwind.warehouse.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

import javax.crypto.SecretKey;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.ResponseCookie;
import org.springframework.stereotype.Service;

import io.jsonwebtoken.Claims;
import io.jsonwebtoken.Jwts;
import io.jsonwebtoken.security.Keys;

/** API keys for the floor tablets and the session tokens handed to them. */
@Service
public class ApiKeyService {

    private static final String SIGNING_SECRET = "wh-7Hq2LmZ9xVb4Np8Rt3Ks6Yd1Fg5Jc0Ae"; // vuln: hardcoded-secret
    private static final String KEY_HASH = "SHA-256";

    private final SecureRandom random = new SecureRandom();
    private final SecretKey signingKey;

    public ApiKeyService(@Value("${warehouse.jwt.secret}") String secret) {
        this.signingKey = Keys.hmacShaKeyFor(secret.getBytes(StandardCharsets.UTF_8));
    }

    public String newTabletKey() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes); // safe: insecure-randomness
        return "tab_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    public String newPickListCode() {
        // printed on the pick list so pickers can find it on the tablet; not a secret
        return Integer.toString(ThreadLocalRandom.current().nextInt(1000, 9999)); // safe: insecure-randomness
    }

    public String newPairingCode() {
        // typed on a new tablet to bind it to the warehouse account
        return Long.toString(ThreadLocalRandom.current().nextLong(100_000_000L, 999_999_999L)); // vuln: insecure-randomness
    }

    public String hashKey(String key) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance(KEY_HASH).digest(key.getBytes(StandardCharsets.UTF_8))); // safe: weak-hash
    }

    public ResponseCookie sessionCookie(String token) {
        return ResponseCookie.from("WH_SESSION", token).httpOnly(true).secure(true).sameSite("Strict").path("/").build(); // safe: insecure-cookie
    }

    public ResponseCookie tabletCookie(String tabletId) {
        return ResponseCookie.from("WH_TABLET", tabletId).path("/").maxAge(86400L * 365).build(); // vuln: insecure-cookie
    }

    public Claims readClaims(String token) {
        return Jwts.parserBuilder().setSigningKey(signingKey).build().parseClaimsJws(token).getBody(); // safe: jwt-misuse
    }

    public Claims readLegacyClaims(String token) {
        // tokens from the old gateway are not signed
        return Jwts.parserBuilder().build().parseClaimsJwt(token).getBody(); // vuln: jwt-misuse
    }

    public String legacyGatewayToken() {
        return Jwts.builder().setSubject("gateway").signWith(Keys.hmacShaKeyFor(SIGNING_SECRET.getBytes(StandardCharsets.UTF_8))).compact();
    }
}
