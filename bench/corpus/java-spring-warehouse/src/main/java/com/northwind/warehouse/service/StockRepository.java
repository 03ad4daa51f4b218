package com.northwind.warehouse.service;

import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Repository;

/** Stock queries. Bin codes look like "A-12-03" (aisle, rack, shelf). */
@Repository
public class StockRepository {

    private static final String BASE = "SELECT sku, bin_code, quantity FROM stock";

    private final JdbcTemplate jdbc;
    private final NamedParameterJdbcTemplate named;

    public StockRepository(JdbcTemplate jdbc, NamedParameterJdbcTemplate named) {
        this.jdbc = jdbc;
        this.named = named;
    }

    public List<Map<String, Object>> bySku(String sku) {
        return jdbc.queryForList(BASE + " WHERE sku = ?", sku); // safe: sql-injection
    }

    public List<Map<String, Object>> byAisle(String aisle) {
        return jdbc.queryForList(BASE + " WHERE bin_code LIKE '" + aisle + "-%'"); // vuln: sql-injection
    }

    public List<Map<String, Object>> search(String column, String value) {
        StringBuilder sql = new StringBuilder(BASE).append(" WHERE ");
        sql.append(column).append(" = :value");
        return named.queryForList(sql.toString(), new MapSqlParameterSource("value", value)); // vuln: sql-injection
    }

    public int adjust(String sku, int delta, String reason) {
        return jdbc.update("UPDATE stock SET quantity = quantity + ?, last_reason = ? WHERE sku = ?", delta, reason, sku); // safe: sql-injection
    }

    public Integer countBelow(int threshold) {
        return jdbc.queryForObject(BASE.replace("sku, bin_code, quantity", "count(*)") + " WHERE quantity < " + threshold, Integer.class); // safe: sql-injection
    }

    public void archive(String table) {
        jdbc.execute("INSERT INTO stock_archive SELECT * FROM " + table + " WHERE archived_at IS NULL"); // vuln: sql-injection
    }
}
